"""Makes the nRF Connect SDK style dfu_application.zip samples for dfu's tests (run by generate.sh).

Usage: make_zips.py OUT_DIR IMGTOOL KEYS_DIR APP_BODY EXPECTED_TSV

The manifests follow sdk-nrf's generator (nrfconnect/sdk-nrf scripts/bootloader/generate_zip.py), fed
the key=value words that cmake/fw_zip.cmake and cmake/sysbuild/zip.cmake pass it (the legacy sample:
modules/mcuboot/CMakeLists.txt of the multi-image builds before sysbuild). The generator's rules, as
re-implemented in `manifest` below:
- a value that starts with 0x becomes a JSON integer, every other value stays a JSON string (so
  image_index, slot_index_* and slot are strings such as "1");
- a key that starts with a file's zip name belongs to that file only (the name is cut off), any other
  key belongs to every file;
- a file's object holds the shared keys first, then its own (which win), then size (bytes), file (its
  zip name) and modtime (seconds);
- the top level is format-version, time, files, then name (--name) and firmware (--meta-info-file);
- json.dumps with indent=4; the zip holds the images in the given order, then manifest.json, stored.
Fixed time stamps and seeded bodies keep everything but the ECDSA signatures the same on every run.
"""
import hashlib
import time
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

FIXED_TIME = 1733097600  # 2024-12-02 00:00:00 UTC: manifest time, every modtime, zip entry times


def prng(seed: str, n: int) -> bytes:
    """SHA-256 in counter mode: the same bytes for a seed on every Python version."""
    out = bytearray()
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(seed.encode() + counter.to_bytes(8, "little")).digest()
        counter += 1
    return bytes(out[:n])


def fake_body(size: int, seed: str) -> bytes:
    """A stand-in Cortex-M program: initial SP and Thumb handler addresses, then seeded bytes."""
    out = bytearray(prng(seed, size))
    struct.pack_into("<I", out, 0, 0x20010000)
    for i in range(1, 16):
        struct.pack_into("<I", out, 4 * i, (0x600 + 8 * i) | 1)
    banner = b"dfu test firmware, not a real program; seed=" + seed.encode() + b"\0"
    out[size - 128:size - 128 + len(banner)] = banner
    return bytes(out)


class Signer:
    def __init__(self, imgtool: str, keys: str, work: str):
        self.imgtool, self.keys, self.work = imgtool, keys, work

    def sign(self, body: bytes, name: str, version: str, slot_size: str, key: str = "ecdsa-p256",
             rom_fixed: str = "") -> str:
        """rom_fixed: the slot address a direct-XIP variant runs from, as Zephyr's sysbuild signs it
        (cmake/sysbuild/image_signing.cmake: --rom-fixed with the slot's address)."""
        source = os.path.join(self.work, name + ".body")
        with open(source, "wb") as f:
            f.write(body)
        out = os.path.join(self.work, name)
        extra = ["--rom-fixed", rom_fixed] if rom_fixed else []
        subprocess.run([self.imgtool, "sign", "--header-size", "0x200", "--align", "4", "--pad-header",
                        "--slot-size", slot_size, "--version", version, *extra,
                        "-k", os.path.join(self.keys, f"TEST-ONLY-{key}.pem"), source, out],
                       check=True, stdout=subprocess.DEVNULL)
        return out

    def verify(self, path: str, key: str = "ecdsa-p256") -> str:
        """imgtool's verdict in one word: OK, INVALID_HASH, INVALID_SIGNATURE or the last line."""
        run = subprocess.run([self.imgtool, "verify", "-k", os.path.join(self.keys, f"TEST-ONLY-{key}.pub.pem"),
                              path], capture_output=True, text=True)
        text = (run.stdout + run.stderr).strip().splitlines()
        last = text[-1] if text else ""
        if run.returncode == 0 and "Image was correctly validated" in text:
            return "OK"
        return {"Image has an invalid hash": "INVALID_HASH",
                "No signature found for the given key": "INVALID_SIGNATURE"}.get(last, last)


def typed(value: str):
    return int(value, 16) if value.startswith("0x") else value


def manifest(files, params, name=None, format_version=1, firmware=None) -> str:
    """The manifest.json text for `files` ((zip name, path) pairs) and the key=value `params`."""
    shared, own = {}, {zip_name: {} for zip_name, _ in files}
    for word in params:
        key, value = word.split("=", 1)
        owners = [zip_name for zip_name, _ in files if key.startswith(zip_name)]
        for zip_name in owners:
            own[zip_name][key.replace(zip_name, "")] = typed(value)
        if not owners:
            shared[key] = typed(value)
    top = {"format-version": format_version, "time": FIXED_TIME, "files": []}
    for zip_name, path in files:
        entry = dict(shared)
        entry.update(own[zip_name])
        entry.update({"size": os.path.getsize(path), "file": zip_name, "modtime": FIXED_TIME})
        top["files"].append(entry)
    if name is not None:
        top["name"] = name
    if firmware is not None:
        top["firmware"] = firmware
    return json.dumps(top, indent=4)


def write_zip(out: str, members):
    """members: (zip name, bytes) in order, stored (generate_zip.py's ZipFile default), fixed times."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    stamp = time.gmtime(FIXED_TIME)[:6]
    with zipfile.ZipFile(out, "w") as z:
        for zip_name, data in members:
            info = zipfile.ZipInfo(zip_name, date_time=stamp)
            info.external_attr = 0o644 << 16
            z.writestr(info, data)


def read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def flip_body_bit(image: bytes) -> bytes:
    """One bit flipped a third into the body: the SHA256 TLV no longer matches."""
    _magic, _load, hdr, _prot, size = struct.unpack_from("<IIHHI", image, 0)
    out = bytearray(image)
    out[hdr + size // 3] ^= 0x01
    return bytes(out)


def main(argv):
    out_dir, imgtool, keys, app_body_path, expected_path = argv[1:6]
    work = tempfile.mkdtemp(prefix="dfu-ncs-samples-")
    signer = Signer(imgtool, keys, work)
    app_body = read(app_body_path)
    problems = []

    def expect(path, want, key="ecdsa-p256"):
        got = signer.verify(path, key)
        if got != want:
            problems.append(f"imgtool verify {os.path.basename(path)} -k {key}: {got}, wanted {want}")

    # Images. The application is firmware-samples/body/blinky-48k.bin; the network core and the
    # second direct-XIP variant (linked for the other slot) get their own seeded bodies.
    app = signer.sign(app_body, "blinky.signed.bin", "1.1.0+0", "0x60000")
    net = signer.sign(fake_body(32768, "ipc-radio-32k-v1"), "ipc_radio.bin", "1.1.0+0", "0x30000")
    net_other = signer.sign(read(net + ".body"), "ipc_radio.other-key.bin", "1.1.0+0", "0x30000",
                            key="other-ecdsa-p256")
    # Direct-XIP variants are linked for their slot and say so (ROM_FIXED, the slot's address as
    # ih_load_addr): the primary at 0xc000, the secondary right after its 0x60000 bytes.
    xip0 = signer.sign(app_body, "blinky.xip.signed.bin", "1.1.0+0", "0x60000", rom_fixed="0xc000")
    xip1 = signer.sign(fake_body(49152, "blinky-48k-slot1-v1"), "mcuboot_secondary_app.signed.bin",
                       "1.1.0+0", "0x60000", rom_fixed="0x6c000")
    legacy = signer.sign(app_body, "app_update.bin", "1.0.0+0", "0x60000")
    for path in (app, net, xip0, xip1, legacy):
        expect(path, "OK")
    expect(net_other, "OK", key="other-ecdsa-p256")

    # Single image, sysbuild (cmake/sysbuild/zip.cmake, not direct-XIP): slots are image * 2 + 1 and + 2.
    app_files = [("blinky.signed.bin", app)]
    app_params = ["blinky.signed.binload_address=0xc200", "blinky.signed.binimage_index=0",
                  "blinky.signed.binslot_index_primary=1", "blinky.signed.binslot_index_secondary=2",
                  "blinky.signed.binversion_MCUBOOT=1.1.0+0",
                  "type=application", "board=nrf52840dk/nrf52840", "soc=nrf52840"]
    app_manifest = manifest(app_files, app_params, name="blinky")
    write_zip(f"{out_dir}/app-1.1.0.zip", [("blinky.signed.bin", read(app)), ("manifest.json", app_manifest)])

    # nRF5340: application core image 0, network core image 1 with its own board, soc and `version`;
    # with --meta-info-file the generator adds the zephyr and nrf revisions.
    ncs_files = [("blinky.signed.bin", app), ("ipc_radio.bin", net)]
    ncs_params = ["blinky.signed.binload_address=0x10200", "blinky.signed.binimage_index=0",
                  "blinky.signed.binslot_index_primary=1", "blinky.signed.binslot_index_secondary=2",
                  "blinky.signed.binversion_MCUBOOT=1.1.0+0",
                  "ipc_radio.binimage_index=1", "ipc_radio.binslot_index_primary=3",
                  "ipc_radio.binslot_index_secondary=4", "ipc_radio.binload_address=0x1008800",
                  "ipc_radio.binversion=1.1.0+0", "ipc_radio.binboard=nrf5340dk/nrf5340/cpunet",
                  "ipc_radio.binsoc=nrf5340",
                  "type=application", "board=nrf5340dk/nrf5340/cpuapp", "soc=nrf5340"]
    firmware = {"zephyr": {"revision": "v3.7.99-ncs2"}, "nrf": {"revision": "v2.9.0"}}
    ncs_manifest = manifest(ncs_files, ncs_params, name="blinky", firmware=firmware)
    write_zip(f"{out_dir}/nrf5340-1.1.0.zip",
              [("blinky.signed.bin", read(app)), ("ipc_radio.bin", read(net)), ("manifest.json", ncs_manifest)])

    # Direct-XIP: one variant per slot, `slot` = image * 2 (+ 1 for the secondary), version_MCUBOOT+XIP.
    xip_files = [("blinky.signed.bin", xip0), ("mcuboot_secondary_app.signed.bin", xip1)]
    xip_params = ["blinky.signed.binload_address=0xc200", "blinky.signed.binversion_MCUBOOT+XIP=1.1.0+0",
                  "blinky.signed.binimage_index=0", "blinky.signed.binslot=0",
                  "mcuboot_secondary_app.signed.binload_address=0x6c200",
                  "mcuboot_secondary_app.signed.binimage_index=0", "mcuboot_secondary_app.signed.binslot=1",
                  "mcuboot_secondary_app.signed.binversion_MCUBOOT+XIP=1.1.0+0",
                  "type=application", "board=nrf52840dk/nrf52840", "soc=nrf52840"]
    xip_manifest = manifest(xip_files, xip_params, name="blinky")
    write_zip(f"{out_dir}/direct-xip-1.1.0.zip",
              [("blinky.signed.bin", read(xip0)), ("mcuboot_secondary_app.signed.bin", read(xip1)),
               ("manifest.json", xip_manifest)])

    # Before sysbuild (modules/mcuboot/CMakeLists.txt, generate_zip.py writing format-version 0): one
    # app_update.bin, shared load_address and version_MCUBOOT, no image_index (image 0), no --name.
    legacy_files = [("app_update.bin", legacy)]
    legacy_params = ["load_address=0xc200", "version_MCUBOOT=1.0.0+0",
                     "type=application", "board=nrf52840dk_nrf52840", "soc=nRF52840_QIAA"]
    write_zip(f"{out_dir}/legacy-app_update-1.0.0.zip",
              [("app_update.bin", read(legacy)), ("manifest.json", manifest(legacy_files, legacy_params, format_version=0))])

    # Broken ones.
    tampered = flip_body_bit(read(net))
    with open(os.path.join(work, "tampered"), "wb") as f:
        f.write(tampered)
    expect(os.path.join(work, "tampered"), "INVALID_HASH")
    write_zip(f"{out_dir}/broken/tampered-net-core.zip",
              [("blinky.signed.bin", read(app)), ("ipc_radio.bin", tampered), ("manifest.json", ncs_manifest)])
    other_manifest = manifest([("blinky.signed.bin", app), ("ipc_radio.bin", net_other)], ncs_params,
                              name="blinky", firmware=firmware)
    write_zip(f"{out_dir}/broken/net-core-other-key.zip",
              [("blinky.signed.bin", read(app)), ("ipc_radio.bin", read(net_other)), ("manifest.json", other_manifest)])
    write_zip(f"{out_dir}/broken/missing-file.zip",
              [("blinky.signed.bin", read(app)), ("manifest.json", ncs_manifest)])
    write_zip(f"{out_dir}/broken/path-traversal.zip",
              [("blinky.signed.bin", read(app)), ("../evil.bin", b"not firmware\n"), ("manifest.json", app_manifest)])
    lying = json.loads(app_manifest)
    lying["files"][0]["size"] += 16
    write_zip(f"{out_dir}/broken/size-mismatch.zip",
              [("blinky.signed.bin", read(app)), ("manifest.json", json.dumps(lying, indent=4))])

    if problems:
        raise SystemExit("make_zips.py: refusing to install inconsistent samples:\n  " + "\n  ".join(problems))

    key, other = "keys/TEST-ONLY-ecdsa-p256.pub.pem", "keys/TEST-ONLY-other-ecdsa-p256.pub.pem"
    rows = [
        ("ncs/app-1.1.0.zip", "-", "OK", "-"),
        ("ncs/app-1.1.0.zip", key, "OK", "-"),
        ("ncs/app-1.1.0.zip", other, "REFUSED", "signature-invalid"),
        ("ncs/nrf5340-1.1.0.zip", "-", "OK", "-"),
        ("ncs/nrf5340-1.1.0.zip", key, "OK", "-"),
        ("ncs/direct-xip-1.1.0.zip", "-", "OK", "-"),
        ("ncs/direct-xip-1.1.0.zip", key, "OK", "-"),
        ("ncs/legacy-app_update-1.0.0.zip", key, "OK", "-"),
        ("ncs/broken/tampered-net-core.zip", "-", "REFUSED", "hash-mismatch"),
        ("ncs/broken/tampered-net-core.zip", key, "REFUSED", "hash-mismatch"),
        ("ncs/broken/net-core-other-key.zip", "-", "OK", "-"),
        ("ncs/broken/net-core-other-key.zip", key, "REFUSED", "signature-invalid"),
        ("ncs/broken/missing-file.zip", "-", "REFUSED", "missing-file"),
        ("ncs/broken/path-traversal.zip", "-", "REFUSED", "unsafe-name"),
        ("ncs/broken/size-mismatch.zip", "-", "REFUSED", "size-mismatch"),
    ]
    with open(expected_path, "w") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main(sys.argv)
