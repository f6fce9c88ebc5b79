"""Makes the Nordic DFU sample packages with pc-nrfutil 6.1.7's library (called by generate.sh).

Usage: make_packages.py OUT_DIR APP_BIN. Writes OUT_DIR/{keys,broken}/, OUT_DIR/*.zip and
OUT_DIR/../nordic-expected.tsv. Only byte surgery on nrfutil's output here; nrfutil does the signing.
"""
import hashlib
import os
import shutil
import sys
import tempfile
import zipfile

from nordicsemi.dfu.package import Package
from nordicsemi.dfu.signing import Signing
from nordicsemi.dfu import dfu_cc_pb2 as pb

HW_VERSION = 52
SD_REQ = [0x0101]  # s112 7.2.0 … any FWID: dfu does not check it offline


def prng(seed: bytes, n: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(seed + counter.to_bytes(8, "little")).digest()
        counter += 1
    return bytes(out[:n])


def make_key(path):
    signer = Signing()
    signer.gen_key(path)


def public_files(private, pub_pem, pub_code):
    signer = Signing()
    signer.load_key(private)
    with open(pub_pem, "w") as f:
        f.write(signer.get_vk("pem", False))
    with open(pub_code, "w") as f:
        f.write(signer.get_vk("code", False) + "\n")


def package(out, key=None, app=None, app_version=None, bootloader=None, bl_version=None):
    """What `nrfutil pkg generate` does: for an app-only package sd_id = sd_req (reference §5.2)."""
    kwargs = dict(hw_version=HW_VERSION, sd_req=SD_REQ, sd_id=SD_REQ,
                  signer=None)
    if key:
        signer = Signing()
        signer.load_key(key)
        kwargs["signer"] = signer
    if app:
        kwargs.update(app_fw=app, app_version=app_version)
    if bootloader:
        kwargs.update(bootloader_fw=bootloader, bl_version=bl_version)
    Package(**kwargs).generate_package(out)


def rewrite(src, dst, change=None, drop=(), add=()):
    """Copies zip src to dst; change(name, bytes) -> bytes; drop names; add (name, bytes) entries."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename in drop:
                continue
            data = zin.read(info.filename)
            if change:
                data = change(info.filename, data)
            zout.writestr(info.filename, data)
        for name, data in add:
            zout.writestr(name, data)


def flip(data, offset):
    b = bytearray(data)
    b[offset] ^= 0x01
    return bytes(b)


def main():
    out, app_bin = sys.argv[1], sys.argv[2]
    keys = os.path.join(out, "keys")
    broken = os.path.join(out, "broken")
    os.makedirs(keys, exist_ok=True)
    shutil.rmtree(broken, ignore_errors=True)
    os.makedirs(broken)
    for old in os.listdir(out):
        if old.endswith(".zip"):
            os.remove(os.path.join(out, old))

    for name in ("TEST-ONLY-nordic-p256", "TEST-ONLY-nordic-other-p256"):
        private = os.path.join(keys, name + ".pem")
        if os.environ.get("NEW_KEYS") == "1" or not os.path.exists(private):
            make_key(private)
        public_files(private, os.path.join(keys, name + ".pub.pem"), os.path.join(keys, name + ".pub.c"))
    key = os.path.join(keys, "TEST-ONLY-nordic-p256.pem")

    work = tempfile.mkdtemp()
    try:
        # An application whose size is not a multiple of 4, so nrfutil's padding is exercised.
        app = os.path.join(work, "blinky.bin")
        with open(app_bin, "rb") as f:
            body = f.read()
        with open(app, "wb") as f:
            f.write(body[:-3])
        bootloader = os.path.join(work, "bootloader.bin")
        with open(bootloader, "wb") as f:
            f.write(prng(b"dfu nordic sample bootloader", 24 * 1024))

        signed = os.path.join(out, "app-signed-3.zip")
        package(signed, key=key, app=app, app_version=3)
        package(os.path.join(out, "app-unsigned-3.zip"), app=app, app_version=3)
        package(os.path.join(out, "bootloader-signed-2.zip"), key=key, bootloader=bootloader, bl_version=2)

        with zipfile.ZipFile(signed) as z:
            names = z.namelist()
            bin_name = next(n for n in names if n.endswith(".bin"))
            dat_name = next(n for n in names if n.endswith(".dat"))
            dat = z.read(dat_name)
            zip_bytes = open(signed, "rb").read()

        def on(name, transform):
            return lambda n, data: transform(data) if n == name else data

        rewrite(signed, os.path.join(broken, "flipped-firmware-byte.zip"), on(bin_name, lambda d: flip(d, 1000)))
        # The last 64 bytes of a signed .dat are the signature (reference §9).
        rewrite(signed, os.path.join(broken, "flipped-signature-byte.zip"), on(dat_name, lambda d: flip(d, len(d) - 10)))
        rewrite(signed, os.path.join(broken, "missing-file.zip"), drop=(bin_name,))
        rewrite(signed, os.path.join(broken, "path-traversal.zip"), add=(("../evil.txt", b"outside\n"),))
        with open(os.path.join(broken, "truncated.zip"), "wb") as f:
            f.write(zip_bytes[: len(zip_bytes) // 2])
        rewrite(signed, os.path.join(broken, "garbage-init-packet.zip"),
                on(dat_name, lambda d: b"\x12\xff\x01" + prng(b"garbage", 40)))

        def short_signature(data):
            packet = pb.Packet()
            packet.ParseFromString(data)
            packet.signed_command.signature = packet.signed_command.signature[:63]
            return packet.SerializeToString()

        rewrite(signed, os.path.join(broken, "short-signature.zip"), on(dat_name, short_signature))
    finally:
        shutil.rmtree(work)

    k = "nordic/keys/TEST-ONLY-nordic-p256"
    other = "nordic/keys/TEST-ONLY-nordic-other-p256.pub.pem"
    rows = [
        # file, key, flags, verdict, problem
        ("nordic/app-signed-3.zip", "-", "-", "OK", "-"),
        ("nordic/app-signed-3.zip", k + ".pub.pem", "-", "OK", "-"),
        ("nordic/app-signed-3.zip", k + ".pub.c", "-", "OK", "-"),
        ("nordic/app-signed-3.zip", other, "-", "REFUSED", "signature-invalid"),
        ("nordic/app-unsigned-3.zip", "-", "-", "OK", "-"),
        ("nordic/app-unsigned-3.zip", k + ".pub.pem", "-", "REFUSED", "unsigned"),
        ("nordic/app-unsigned-3.zip", k + ".pub.pem", "--allow-unsigned", "OK", "-"),
        ("nordic/bootloader-signed-2.zip", k + ".pub.pem", "-", "OK", "-"),
        ("nordic/broken/flipped-firmware-byte.zip", k + ".pub.pem", "-", "REFUSED", "hash-mismatch"),
        ("nordic/broken/flipped-firmware-byte.zip", "-", "-", "REFUSED", "hash-mismatch"),
        ("nordic/broken/flipped-signature-byte.zip", k + ".pub.pem", "-", "REFUSED", "signature-invalid"),
        ("nordic/broken/garbage-init-packet.zip", k + ".pub.pem", "-", "REFUSED", "init-packet-invalid"),
        ("nordic/broken/missing-file.zip", k + ".pub.pem", "-", "REFUSED", "missing-file"),
        ("nordic/broken/path-traversal.zip", k + ".pub.pem", "-", "REFUSED", "unsafe-name"),
        ("nordic/broken/short-signature.zip", "-", "-", "REFUSED", "signature-malformed"),
        ("nordic/broken/truncated.zip", k + ".pub.pem", "-", "REFUSED", "damaged"),
    ]
    with open(os.path.join(out, "..", "nordic-expected.tsv"), "w") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")


main()
