#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets: Fuzz/corpus/<Target>/<name>, from the firmware samples
and the test vectors (docs/faults.md, "Fuzzing"). Run from anywhere; rewrites the corpus whole.

Each seed is in its target's input layout (the target's file, Fuzz/<Target>.swift, or the entry file
of its folder, Fuzz/<Target>/<Target>.swift, says which leading bytes choose options and how the rest
is cut into chunks). Seeds are kept small (a few KiB at most): the MCUboot images are the samples
with their body cut to 64 bytes, then hashed and signed again with the TEST-ONLY key (openssl), so
the fuzzer starts from images that verify; the Nordic and nRF Connect SDK zips carry short firmware.
Needs python3 and openssl only. ECDSA and RSA-PSS signatures are randomised by the signer, so a
re-run rewrites those seeds with other (equally valid) signatures.
"""
import hashlib
import io
import json
import lzma
import os
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "firmware-samples")
VECTORS = os.path.join(ROOT, "Tests", "Vectors")
OUT = os.path.join(ROOT, "Fuzz", "corpus")

corpus = {}


def seed(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    corpus.setdefault(target, {})[name] = bytes(data)


def chunked(data, size):
    """The FuzzInput chunk layout: a length byte, then that many bytes."""
    out = bytearray()
    for start in range(0, len(data), size):
        piece = data[start:start + size]
        out += bytes([len(piece)]) + piece
    return bytes(out)


def vectors(path):
    with open(os.path.join(VECTORS, path)) as f:
        return json.load(f)


# --- CBOR and SMP -----------------------------------------------------------------------------------

def cbor(value):
    """The CBOR subset SMP uses: ints, text, bytes, bools, lists, dicts (definite lengths)."""
    def head(major, n):
        if n < 24:
            return bytes([major << 5 | n])
        for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if n < 1 << (8 * size):
                return bytes([major << 5 | extra]) + n.to_bytes(size, "big")
        raise ValueError(n)
    if isinstance(value, bool):
        return bytes([0xF5 if value else 0xF4])
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, str):
        data = value.encode()
        return head(3, len(data)) + data
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(v) for v in value)
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(value)


def smp(op, group, command, body, sequence=1, version=1):
    data = cbor(body)
    return bytes([version << 3 | op, 0]) + struct.pack(">HHBB", len(data), group, sequence, command) + data


SMP_RESPONSES = {
    "state-read": smp(1, 1, 0, {"images": [{"image": 0, "slot": 0, "version": "1.0.0", "hash": bytes(range(32)),
                                            "bootable": True, "pending": False, "confirmed": True, "active": True,
                                            "permanent": False},
                                           {"slot": 1, "version": "1.1.0+4", "hash": bytes(32), "pending": True}],
                                "splitStatus": 0}),
    "upload-off": smp(3, 1, 1, {"off": 4096}),
    "upload-match": smp(3, 1, 1, {"off": 49816, "match": True, "rc": 0}),
    "params": smp(1, 0, 6, {"buf_size": 2475, "buf_count": 4}),
    "echo": smp(3, 0, 0, {"r": "hello"}),
    "os-info": smp(1, 0, 7, {"output": "Zephyr"}),
    "bootloader-info": smp(1, 0, 8, {"bootloader": "MCUboot", "mode": 1, "no-downgrade": False}),
    "slot-info": smp(1, 1, 6, {"images": [{"image": 0, "slots": [{"slot": 0, "size": 393216},
                                                                  {"slot": 1, "size": 393216, "upload_image_id": 0}],
                                           "max_image_size": 393216}]}),
    "error-v2": smp(3, 1, 1, {"err": {"group": 1, "rc": 2}}, version=2),
    "error-rc": smp(3, 1, 1, {"rc": 3, "rsn": "no space"}),
    "reset": smp(3, 0, 5, {}),
}


def smp_seeds():
    for i, vector in enumerate(vectors("cbor/cbor-vectors.json")["valid"]):
        seed("CBORDecoder", f"valid-{i:02d}", b"\x00" + bytes.fromhex(vector["hex"]))
    for i, vector in enumerate(vectors("cbor/cbor-vectors.json")["invalid"]):
        seed("CBORDecoder", f"invalid-{i:02d}", b"\x01" + bytes.fromhex(vector["hex"]))
    packets = [bytes.fromhex(p["hex"]) for p in vectors("cbor/smp-vectors.json")["packets"]]
    packets += SMP_RESPONSES.values()
    for i, packet in enumerate(packets):
        seed("CBORDecoder", f"smp-body-{i:02d}", b"\x00" + packet[8:])
        seed("SMPResponse", f"packet-{i:02d}", packet)
        seed("SMPFrameAssembler", f"packet-{i:02d}", b"\x00" + chunked(packet, 20 if i % 2 else 244))
    seed("SMPFrameAssembler", "two-packets-and-a-reset",
         b"\x00" + chunked(packets[0][:5], 5) + b"\x01\xff" + chunked(packets[1], 9))

    serial = vectors("smp-serial/smp-serial-vectors.json")
    for i, frame in enumerate(serial["frames"]):
        stream = b"".join(bytes.fromhex(line) for line in frame["lines"])
        seed("SMPSerialDecoder", f"frame-{i:02d}", b"\x00" + chunked(stream, 64))
        seed("SMPResponse", f"serial-packet-{i:02d}", bytes.fromhex(frame["packet"]))
    for i, stream in enumerate(serial["streams"]):
        seed("SMPSerialDecoder", f"stream-{i:02d}", b"\x00" + chunked(bytes.fromhex(stream["stream"]), 100))
    for i, rejected in enumerate(serial["rejected"]):
        stream = b"".join(bytes.fromhex(line) for line in rejected["lines"] + rejected["then"])
        seed("SMPSerialDecoder", f"rejected-{i:02d}", b"\x00" + chunked(stream, 30))
    for i, raw in enumerate(serial["raw"]):
        stream = bytes.fromhex(raw["stream"])
        seed("SMPRawStreamDecoder", f"raw-{i:02d}", b"\x00" + chunked(stream[:3000], 200))
    raw = b"\r\n".join(packets[:4]) + b"log line\n" + packets[4]
    seed("SMPRawStreamDecoder", "packets-and-noise", b"\x00" + chunked(raw, 50))


# --- Nordic serial and control point ----------------------------------------------------------------

def slip_decode(stream):
    frames, frame, escape = [], bytearray(), False
    for byte in stream:
        if escape:
            frame.append({0xDC: 0xC0, 0xDD: 0xDB}.get(byte, byte))
            escape = False
        elif byte == 0xDB:
            escape = True
        elif byte == 0xC0:
            if frame:
                frames.append(bytes(frame))
            frame = bytearray()
        else:
            frame.append(byte)
    return frames


def nordic_seeds():
    nordic = vectors("nordic-serial/nrfutil-serial-vectors.json")
    for i, vector in enumerate(nordic["slip"]):
        seed("SLIPDecoder", f"slip-{i:02d}", b"\x00" + chunked(bytes.fromhex(vector["encoded"]), 7))
    for i, vector in enumerate(nordic["slipDecode"]):
        seed("SLIPDecoder", f"stream-{i:02d}", b"\x01\x40" + chunked(bytes.fromhex(vector["stream"]), 3))
    replies = set()
    for vector in nordic["requests"]:
        if vector.get("reply"):
            replies.update(slip_decode(bytes.fromhex(vector["reply"])))
    replies.update([
        bytes.fromhex("600601") + struct.pack("<III", 4096, 0, 0),        # select: max size, offset, CRC
        bytes.fromhex("600301") + struct.pack("<II", 8192, 0x1234ABCD),  # checksum
        bytes.fromhex("60010b05"),                                       # create: extended error 5
        bytes.fromhex("600402"),                                         # execute: invalid
        bytes.fromhex("200101"),                                         # buttonless: enter bootloader, success
        bytes.fromhex("200204"),                                         # buttonless: set name, failed
    ])
    for i, reply in enumerate(sorted(replies)):
        seed("NordicResponse", f"reply-{i:02d}", reply)
        seed("SLIPDecoder", f"reply-{i:02d}", b"\x00" + chunked(reply.replace(b"\xdb", b"\xdb\xdd")
                                                               .replace(b"\xc0", b"\xdb\xdc") + b"\xc0", 4))


# --- Whole exchanges --------------------------------------------------------------------------------

def exchange_seeds():
    """Fuzz/SMPUploadExchange/ and Fuzz/NordicTransferExchange/: option bytes, then one
    move a byte (its parameters after it); 0 is the device's honest answer. After the input the
    device answers honestly unless the first byte says it falls silent."""
    honest = b"\x00"
    # SMP: link (budget, window - 1 << 2, silent tail 0x10, v1 0x20), image size (32 + 8 n), options
    # (failures - 2, resync 0x04, image 1 0x08, upgrade 0x10, slot hash 0x20, match 0x40).
    smp = {
        "happy-path": bytes([0x08, 0x80, 0x03]) + honest * 12,
        "happy-path-no-reassembly-match": bytes([0x05, 0xC0, 0x43]) + honest * 20,
        "happy-path-one-packet": bytes([0x0F, 0x80, 0x00]) + honest,
        "link-loss-then-slot-list": bytes([0x08, 0x40, 0x23]) + honest * 2 + b"\x0b\x0b\x00" + honest * 6,
        "busy-pause-then-rewind": bytes([0x04, 0x40, 0x01]) + honest + b"\x03\x00\x00" + b"\x09" + b"\x02\xf0"
        + honest * 6,
        "version-fallback": bytes([0x00, 0x20, 0x00]) + b"\x03\x00\x08" + honest * 6,
        "stale-duplicate-cut-dropped": bytes([0x0C, 0x40, 0x02]) + honest + b"\x05" + b"\x0c\x05" + b"\x04\x01"
        + b"\x0d" + b"\x09" + honest * 6,
        "offset-past-the-end": bytes([0x00, 0x20, 0x00]) + honest + b"\x01\x7f\xff\x00",
        "wrong-sequence-and-garbage": bytes([0x00, 0x20, 0x00]) + honest + b"\x06\x01" + b"\x08\x05\x01\x00\x00\x05\x00",
        "silent-device-resync": bytes([0x10, 0x40, 0x04]) + honest * 2,
        "session-lost-then-restart": bytes([0x04, 0x60, 0x01]) + honest * 2 + b"\x0e" + honest * 8,
    }
    for name, data in smp.items():
        seed("SMPUploadExchange", name, data)
    # Nordic: link (packet size, PRN index << 2, retries << 5, silent tail 0x80), firmware (4 + 8 n
    # bytes), init packet (1 + n % 200 bytes), bootloader (data max size, command max size << 2,
    # keeps progress over a lost link 0x10, PRN before the link takes the batch 0x20).
    nordic = {
        "happy-path-prn-off": bytes([0x63, 0x80, 0x8C, 0x11]) + honest * 40,
        "happy-path-prn-4-small-packets": bytes([0x70, 0x40, 0x40, 0x00]) + honest * 60,
        "link-loss-then-resume": bytes([0x63, 0x80, 0x8C, 0x01]) + honest * 12 + b"\x07" + b"\x07\x38" + honest * 30,
        "lost-packet-then-missing-prn": bytes([0x69, 0x60, 0x20, 0x01]) + honest * 9 + b"\x08\x00" + b"\x05" + honest * 6
        + b"\x0d\x01" + b"\x05" + honest * 20,
        "late-prn": bytes([0x69, 0x60, 0x20, 0x31]) + honest * 9 + b"\x0d\x00" + b"\x05" + honest * 20,
        "forged-resume-att-error-then-loss": bytes([0x63, 0x40, 0x10, 0x11]) + b"\x01\x03\x00\x00\x00\x00\x00" + honest * 4
        + b"\x0a\x0e" + b"\x07" + b"\x07\x38" + honest * 20,
        "init-packet-refused-extended-error": bytes([0x63, 0x40, 0x10, 0x11]) + honest * 5 + b"\x02\x0b\x07\x01",
        "silent-bootloader": bytes([0xE3, 0x40, 0x10, 0x11]) + honest * 3,
        "final-execute-link-lost": bytes([0x63, 0x08, 0x10, 0x13]) + honest * 10 + b"\x0e",
    }
    for name, data in nordic.items():
        seed("NordicTransferExchange", name, data)


# --- MCUboot images ---------------------------------------------------------------------------------

IMAGE_MAGIC = 0x96F3B83D
SIGNATURES = {0x20: "rsa2048", 0x22: "ecdsa-p256", 0x23: "rsa3072", 0x24: "ed25519"}
# The options byte of Fuzz/MCUbootImage.swift: the verifying key's index, 0x10 to decrypt, 0x20 for X25519.
KEY_OPTION = {"ecdsa-p256": 1, "ed25519": 2, "rsa2048": 3, "rsa3072": 4}


def tlv_area(magic, entries):
    body = b"".join(struct.pack("<HH", kind, len(value)) + value for kind, value in entries)
    return struct.pack("<HH", magic, 4 + len(body)) + body


def parse_tlvs(data, offset):
    magic, total = struct.unpack_from("<HH", data, offset)
    entries, at = [], offset + 4
    while at < offset + total:
        kind, length = struct.unpack_from("<HH", data, at)
        entries.append((kind, data[at + 4:at + 4 + length]))
        at += 4 + length
    return magic, total, entries


def sign(digest, algorithm, work):
    key = os.path.join(SAMPLES, "keys", f"TEST-ONLY-{algorithm}.pem")
    digest_file = os.path.join(work, "digest")
    with open(digest_file, "wb") as f:
        f.write(digest)
    command = ["openssl", "pkeyutl", "-sign", "-inkey", key, "-in", digest_file]
    if algorithm == "ed25519":
        command.append("-rawin")
    elif algorithm.startswith("rsa"):
        command += ["-pkeyopt", "digest:sha256", "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:32"]
    return subprocess.run(command, check=True, capture_output=True).stdout


def shrink_image(data, body_size, work, signer=None):
    """The image with its body cut to body_size bytes, its SHA256 TLV and signature made again."""
    magic, _, header_size, protected_size, image_size, flags = struct.unpack_from("<IIHHII", data, 0)
    assert magic == IMAGE_MAGIC
    body_size = min(body_size, image_size)
    header = bytearray(data[:header_size])
    struct.pack_into("<I", header, 12, body_size)
    protected = data[header_size + image_size:header_size + image_size + protected_size]
    _, _, entries = parse_tlvs(data, header_size + image_size + protected_size)
    hashed = bytes(header) + data[header_size:header_size + body_size] + protected
    digest = hashlib.sha256(hashed).digest()
    encrypted = flags & 0x04
    new_entries = []
    for kind, value in entries:
        if kind == 0x10 and not encrypted:
            value = digest
        elif kind in SIGNATURES and not encrypted:
            value = sign(digest, signer or SIGNATURES[kind], work)
        new_entries.append((kind, value))
    return hashed + tlv_area(0x6907, new_entries)


def image_seeds(work):
    images = os.path.join(SAMPLES, "images")
    shrunk = {}
    for name in sorted(os.listdir(images)):
        if name.startswith("bench-"):
            continue
        data = open(os.path.join(images, name), "rb").read()
        small = shrink_image(data, 64, work)
        shrunk[name] = small
        option = next((KEY_OPTION[k] for k in KEY_OPTION if f"-{k}-" in name.replace("enc-ec256-", "")
                       .replace("enc-x25519-", "").replace("enc-rsa2048-", "")), 0)
        if "enc-ec256" in name:
            option |= 0x10
        if "enc-x25519" in name:
            option |= 0x30
        seed("MCUbootImage", name.replace(".signed.bin", "").replace(".bin", ""), bytes([option]) + small)
        seed("MCUbootImage", name.replace(".signed.bin", "").replace(".bin", "") + "-no-key", b"\x00" + small)
    broken = os.path.join(SAMPLES, "broken")
    originals = {name: open(os.path.join(images, name), "rb").read() for name in shrunk}
    for name in sorted(os.listdir(broken)):
        data = open(os.path.join(broken, name), "rb").read()
        seed("MCUbootImage", "broken-" + name.replace(".bin", ""), b"\x01" + broken_small(data, originals, shrunk, work))
    return shrunk


# imgtool 2.5.0's LZMA2 settings (imgtool/main.py: comp_default_*) and the TLVs a compressed image adds.
LZMA2 = {"dict_size": 131072, "pb": 2, "lc": 3, "lp": 1, "preset": 9}
DECOMP_SIZE, DECOMP_SHA, DECOMP_SIGNATURE = 0x70, 0x71, 0x72


def lzma2_header():
    """imgtool's create_lzma2_header: the dictionary size code, then (pb * 5 + lp) * 9 + lc."""
    code = next(i for i in range(40) if LZMA2["dict_size"] <= (2 | (i & 1)) << (i // 2 + 11))
    return bytes([code, (LZMA2["pb"] * 5 + LZMA2["lp"]) * 9 + LZMA2["lc"]])


def compressed_small(compressed, uncompressed, body_size, work):
    """What `imgtool sign --compression lzma2[armthumb]` (2.5.0) makes of the first body_size bytes of
    the samples' compressible body, byte for byte (compared with imgtool's own output, with
    generate.sh's arguments, when this was written): the stream decompresses whole (shrink_image's
    cut one does not), DECOMP_SIZE, DECOMP_SHA and DECOMP_SIGNATURE describe the uncompressed sample
    cut to those bytes (what MCUboot installs), and the file is hashed and signed again."""
    header_size, protected_size, image_size, flags = struct.unpack_from("<HHII", compressed, 8)
    installed = shrink_image(uncompressed, body_size, work)
    u_header_size, u_protected_size = struct.unpack_from("<HH", uncompressed, 8)
    _, _, installed_tlvs = parse_tlvs(installed, u_header_size + body_size + u_protected_size)
    installed_tlvs = dict(installed_tlvs)
    filters = [{"id": lzma.FILTER_LZMA2, "preset": LZMA2["preset"], "dict_size": LZMA2["dict_size"],
                "lp": LZMA2["lp"], "lc": LZMA2["lc"]}]
    if flags & 0x800:
        filters.insert(0, {"id": lzma.FILTER_ARMTHUMB})
    body = uncompressed[u_header_size:u_header_size + body_size]
    stream = lzma2_header() + lzma.compress(body, format=lzma.FORMAT_RAW, filters=filters)
    replaced = {DECOMP_SIZE: struct.pack("<I", body_size), DECOMP_SHA: installed_tlvs[0x10],
                DECOMP_SIGNATURE: installed_tlvs[0x24]}
    _, _, entries = parse_tlvs(compressed, header_size + image_size)
    protected = tlv_area(0x6908, [(kind, replaced.get(kind, value)) for kind, value in entries])
    header = bytearray(compressed[:header_size])
    struct.pack_into("<H", header, 10, len(protected))
    struct.pack_into("<I", header, 12, len(stream))
    hashed = bytes(header) + stream + protected
    digest = hashlib.sha256(hashed).digest()
    _, _, entries = parse_tlvs(compressed, header_size + image_size + protected_size)
    unprotected = []
    for kind, value in entries:
        if kind == 0x10:
            value = digest
        elif kind in SIGNATURES:
            value = sign(digest, SIGNATURES[kind], work)
        unprotected.append((kind, value))
    return hashed + tlv_area(0x6907, unprotected)


def compressed_seeds(work):
    """Small compressed images whose stream decompresses whole, so the fuzzer starts from the
    decompression and its checks passing (the seeds cut from the samples fail at the cut)."""
    images = os.path.join(SAMPLES, "images")
    uncompressed = open(os.path.join(images, "blinky-compressible-ed25519-1.1.0.signed.bin"), "rb").read()
    for method in ("lzma2", "lzma2armthumb"):
        compressed = open(os.path.join(images, f"blinky-{method}-ed25519-1.1.0.signed.bin"), "rb").read()
        small = compressed_small(compressed, uncompressed, 4096, work)
        assert len(small) <= 4096, len(small)
        seed("MCUbootImage", f"small-{method}-ed25519-whole-stream", bytes([KEY_OPTION["ed25519"]]) + small)


def broken_small(data, originals, shrunk, work):
    """A broken sample made small the way its image was: its changed bytes carried over to the
    image's small form (header bytes in place, TLV bytes shifted with the cut body)."""
    if name_of := next((n for n, o in originals.items() if len(o) == len(data)
                        and sum(a != b for a, b in zip(o, data)) < 64), None):
        original, small = originals[name_of], bytearray(shrunk[name_of])
        header_size, image_size = struct.unpack_from("<HxxI", original, 8)
        cut = image_size - min(64, image_size)
        for at, (a, b) in enumerate(zip(original, data)):
            if a == b:
                continue
            if at < header_size:
                small[at] = b
            elif at < header_size + image_size:
                small[header_size + (at - header_size) % 64] = b
            elif at - cut < len(small):
                # (A signature made again may differ in length by a byte or two: near enough.)
                small[at - cut] = b
        return bytes(small)
    if len(data) < 64:
        return data
    original = originals["blinky-ecdsa-p256-1.1.0.signed.bin"]
    if len(data) < len(original) and data == original[:len(data)]:
        # Cut short: as short again.
        return shrunk["blinky-ecdsa-p256-1.1.0.signed.bin"][:len(data) - len(original)]
    # Signed with another key: signed small with that key.
    return shrink_image(data, 64, work, signer="other-ecdsa-p256")
    return shrunk


# --- Nordic and nRF Connect SDK packages ------------------------------------------------------------

def rezip(path, change):
    out = io.BytesIO()
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = change(info.filename, source.read(info.filename))
            target.writestr(info, data)
    return out.getvalue()


def package_seeds(shrunk):
    nordic = os.path.join(SAMPLES, "nordic")
    paths = [os.path.join(nordic, n) for n in sorted(os.listdir(nordic)) if n.endswith(".zip")]
    paths += [os.path.join(nordic, "broken", n) for n in sorted(os.listdir(os.path.join(nordic, "broken")))]
    for path in paths:
        name = os.path.basename(path)[:-4]
        if "broken" in path:
            name = "broken-" + name
        try:
            with zipfile.ZipFile(path) as z:
                for info in z.infolist():
                    if info.filename.endswith(".dat"):
                        seed("NordicInitPacket", f"{name}-{info.filename[:-4]}", z.read(info.filename))
                    if info.filename == "manifest.json":
                        seed("PackageManifest", f"nordic-{name}", z.read(info.filename))
            small = rezip(path, lambda file, data: data[:64] if file.endswith(".bin") else data)
        except zipfile.BadZipFile:
            small = open(path, "rb").read()[-2048:]
        for option in (0, 1, 3):
            seed("NordicPackage", f"{name}-{option}", bytes([option]) + small)

    ncs = os.path.join(SAMPLES, "ncs")
    paths = [os.path.join(ncs, n) for n in sorted(os.listdir(ncs)) if n.endswith(".zip")]
    paths += [os.path.join(ncs, "broken", n) for n in sorted(os.listdir(os.path.join(ncs, "broken")))]
    small_app = shrunk["blinky-ecdsa-p256-1.1.0.signed.bin"]

    def ncs_change(file, data):
        if file == "manifest.json":
            manifest = json.loads(data)
            for entry in manifest.get("files", []):
                entry["size"] = len(small_app)
            return json.dumps(manifest, indent=4).encode()
        if file.endswith(".bin"):
            return small_app
        return data

    for path in paths:
        name = os.path.basename(path)[:-4]
        if "broken" in path:
            name = "broken-" + name
        with zipfile.ZipFile(path) as z:
            if "manifest.json" in z.namelist():
                seed("PackageManifest", f"ncs-{name}", z.read("manifest.json"))
        seed("NCSPackage", f"{name}", b"\x01" + rezip(path, ncs_change))


# --- Journals, devices, plans -----------------------------------------------------------------------

CURRENT_JOURNAL = {
    "format": "dfu-journal/2",
    "request": {"image": "/home/factory/blinky-1.1.0.signed.bin", "device": "AA:BB:CC:DD:EE:FF",
                "adapter": "hci0", "key": "/home/factory/key.pub.pem", "allow_unsigned": False,
                "expect_version": "1.1.0", "prn": 12, "mode": "test-confirm", "image_index": 0,
                "min_battery": 20, "allow_downgrade": False, "require_newer": True,
                "allow_host_battery": False, "pair": False,
                "timeouts": {"connect": 30, "chunk": 2.5, "first_chunk": 60}},
    "file": {"sha256": "ab" * 32, "size": 49816, "protocol": "smp"},
    "image_version": "1.1.0",
    "status": "unfinished",
    "stage": "transfer",
    "offset": 4096,
    "attempts": 2,
    "started_at": 1733097600,
    "updated_at": 1733097700,
    "last_outcome": {"result": "failed", "failure": "transfer-interrupted", "message": "the link dropped"},
}


def text_seeds():
    journals = os.path.join(VECTORS, "journal")
    for name in sorted(os.listdir(journals)):
        if name.endswith(".json"):
            seed("JournalReader", name[:-5], open(os.path.join(journals, name), "rb").read())
    seed("JournalReader", "dfu-journal-2", json.dumps(CURRENT_JOURNAL, indent=2, sort_keys=True))
    done = dict(CURRENT_JOURNAL, status="done", stage="done", finished_at=1733097800,
                last_outcome={"result": "succeeded", "message": "done"})
    seed("JournalReader", "dfu-journal-2-done", json.dumps(done, sort_keys=True))
    seed("JournalReader", "foreign-format", '{"format": "dfu-journal/9"}')

    devices = ["sim", "sim:version=1.0.0,battery=15", "udp:127.0.0.1:1337", "udp:[::1]:1337", "udp:localhost:1337",
               "serial:/dev/ttyACM0", "serial:/dev/ttyUSB0,baud=1000000,raw", "serial:/dev/ttyS1,recovery,rtscts",
               "AA:BB:CC:DD:EE:FF", "aa:bb:cc:dd:ee:0f", "name:Thingy", "name:", "udp:host:0", "sim:key=k.pem,id=unit-1"]
    for i, device in enumerate(devices):
        seed("DeviceSpec", f"device-{i:02d}", device)
    options = ["sim", "sim:version=1.2.3+45,battery=15%,mtu=247,phy=1M,interval=30",
               "sim:buf_size=1024,buf_count=2,slot_size=256K,reassembly=off,bootloader=direct-xip,swap=scratch",
               "sim:images=2,reset_ms=0,seed=7,timescale=0.05,drop_report=40",
               "sim:fault=disconnect@40%+reboot@60%,fault=stall@1000,fault=delay@random:1500ms,fault=busy@20%:3",
               "sim:fault=drop@request:upload:last,fault=drop-before@request:reset:2,fault=drop-after@request:echo",
               "sim:fault=silent@50%,fault=outage@8192:2s", "sim:protocol=nordic,version=3,sdk=17,chip=nrf52840",
               "sim:protocol=nordic,hw_version=52,sd_fwid=0x0101,bootloader_address=AA:BB:CC:DD:EE:00",
               "sim:bootloader=ram-load-revert,id=AA:BB:CC:DD:EE:01", "sim:bootloader=suit", "sim:enc_key=k.pem"]
    for i, option in enumerate(options):
        seed("SimOptions", f"options-{i:02d}", option)
    plans = os.path.join(SAMPLES, "plans")
    for name in sorted(os.listdir(plans)):
        seed("BatchPlan", name, b"\x00" + open(os.path.join(plans, name), "rb").read())
    seed("BatchPlan", "json-lines", b"\x05" + b'{"device": "sim:id=a", "image": "a.bin", "serial": "A1"}\n'
         b'{"device": "AA:BB:CC:DD:EE:FF", "image": "/abs/b.bin", "key": "k.pem", "mode": "test", "min_battery": 30,'
         b' "passkey": "123456", "expect_version": "1.1.0"}\n')
    seed("BatchPlan", "csv-quotes", b"\x02" + b'Device,Image,min-batery,notes\n"udp:127.0.0.1:1337",img.bin,,"a, ""quoted"" note"\r\n'
         b'serial:/dev/ttyACM0,img.bin,10,\n')


def command_line_seeds():
    """CommandLine: the `$ dfu …` examples of the README and docs/, words joined by NUL, and a few
    shapes the examples lack (help, `--opt=value`, `--`, a bundle of short flags)."""
    lines = set()
    for path in [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(ROOT, "docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md")):
        for line in open(path, encoding="utf-8"):
            line = line.rstrip("\n")
            if not line.startswith("$ dfu ") or line.endswith("\\"):
                continue
            try:
                words = shlex.split(line[len("$ dfu "):], comments=True)
            except ValueError:
                continue
            for stop in ("|", ">", "2>", "&&", ";"):
                if stop in words:
                    words = words[:words.index(stop)]
            if words:
                lines.add("\0".join(words))
    lines.update(["flash\0--help", "image\0list\0-h", "help\0flash", "scan\0-v\0--json",
                  "flash\0app.bin\0--device=sim\0--key=k.pem\0-v\0--\0--odd-name.bin",
                  "batch\0plan.csv\0--parallel\0999\0--min-battery\0101"])
    for i, line in enumerate(sorted(lines)):
        seed("CommandLine", f"line-{i:02d}", line)


# --- D-Bus messages ---------------------------------------------------------------------------------

ALIGN = {"y": 1, "b": 4, "n": 2, "q": 2, "i": 4, "u": 4, "x": 8, "t": 8, "d": 8, "s": 4, "o": 4, "g": 1,
         "a": 4, "(": 8, "{": 8, "v": 1}


def split_signature(signature):
    """The complete types of a signature."""
    types, at = [], 0
    while at < len(signature):
        end = at
        depth = 0
        while True:
            c = signature[end]
            if c in "({":
                depth += 1
            elif c in ")}":
                depth -= 1
            end += 1
            if depth == 0 and c != "a":
                break
        types.append(signature[at:end])
        at = end
    return types


def marshal(signature, value, out):
    def pad(n):
        while len(out) % n:
            out.append(0)
    code = signature[0]
    pad(ALIGN[code])
    if code == "y":
        out.append(value)
    elif code in "bu":
        out += struct.pack("<I", int(value))
    elif code == "i":
        out += struct.pack("<i", value)
    elif code == "n":
        out += struct.pack("<h", value)
    elif code == "q":
        out += struct.pack("<H", value)
    elif code in "so":
        data = value.encode()
        out += struct.pack("<I", len(data)) + data + b"\0"
    elif code == "g":
        data = value.encode()
        out += bytes([len(data)]) + data + b"\0"
    elif code == "v":
        inner, inner_value = value
        marshal("g", inner, out)
        marshal(inner, inner_value, out)
    elif code == "a":
        element = signature[1:]
        length_at = len(out)
        out += b"\0\0\0\0"
        pad(ALIGN[element[0]])
        start = len(out)
        items = value.items() if element[0] == "{" else value
        for item in items:
            marshal(element, item, out)
        struct.pack_into("<I", out, length_at, len(out) - start)
    elif code in "({":
        for inner, inner_value in zip(split_signature(signature[1:-1]), value):
            marshal(inner, inner_value, out)
    else:
        raise ValueError(code)


def dbus_message(kind, fields, signature, arguments, serial=7):
    body = bytearray()
    for inner, value in zip(split_signature(signature), arguments):
        marshal(inner, value, body)
    header_fields = [(code, (sig, value)) for code, sig, value in fields]
    if signature:
        header_fields.append((8, ("g", signature)))
    header = bytearray(b"l" + bytes([kind, 0, 1]) + struct.pack("<II", len(body), serial))
    marshal("a(yv)", header_fields, header)
    while len(header) % 8:
        header.append(0)
    return bytes(header + body)


def dbus_seeds():
    device = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"
    props = {"Address": ("s", "AA:BB:CC:DD:EE:FF"), "Name": ("s", "Thingy"), "RSSI": ("n", -60),
             "UUIDs": ("as", ["8d53dc1d-1db7-4cd3-868b-8a527460aa84"]), "Connected": ("b", True),
             "ServicesResolved": ("b", False), "Adapter": ("o", "/org/bluez/hci0")}
    objects = {
        "/org/bluez/hci0": {"org.bluez.Adapter1": {"Address": ("s", "00:11:22:33:44:55"), "Powered": ("b", True)}},
        device: {"org.bluez.Device1": props},
        device + "/service0010": {"org.bluez.GattService1": {"UUID": ("s", "8d53dc1d-1db7-4cd3-868b-8a527460aa84"),
                                                             "Device": ("o", device)}},
        device + "/service0010/char0011": {"org.bluez.GattCharacteristic1": {
            "UUID": ("s", "da2e7828-fbce-4e01-ae9e-261174997c48"), "Service": ("o", device + "/service0010"),
            "Flags": ("as", ["write-without-response", "notify"]), "MTU": ("q", 498)}},
    }
    reply = dbus_message(2, [(5, "u", 3), (7, "s", ":1.4")], "a{oa{sa{sv}}}", [objects])
    seed("DBusMessage", "managed-objects", reply)
    added = dbus_message(4, [(1, "o", "/"), (2, "s", "org.freedesktop.DBus.ObjectManager"), (3, "s", "InterfacesAdded"),
                             (7, "s", ":1.4")], "oa{sa{sv}}", [device, objects[device]])
    seed("DBusMessage", "interfaces-added", added)
    removed = dbus_message(4, [(1, "o", "/"), (2, "s", "org.freedesktop.DBus.ObjectManager"),
                               (3, "s", "InterfacesRemoved")], "oas", [device, ["org.bluez.Device1"]])
    seed("DBusMessage", "interfaces-removed", removed)
    changed = dbus_message(4, [(1, "o", device), (2, "s", "org.freedesktop.DBus.Properties"),
                               (3, "s", "PropertiesChanged")], "sa{sv}as",
                           ["org.bluez.Device1", {"Connected": ("b", False), "RSSI": ("n", -70)}, ["Name"]])
    seed("DBusMessage", "properties-changed", changed)
    error = dbus_message(3, [(4, "s", "org.bluez.Error.Failed"), (5, "u", 9)], "s", ["le-connection-abort-by-local"])
    seed("DBusMessage", "error", error)


def kept_seeds():
    """Inputs that once crashed a target (regression-*, docs/faults.md): no generator makes them, so
    they are kept as they are."""
    if not os.path.isdir(OUT):
        return
    for target in sorted(os.listdir(OUT)):
        for name in sorted(os.listdir(os.path.join(OUT, target))):
            if name.startswith("regression-"):
                with open(os.path.join(OUT, target, name), "rb") as f:
                    seed(target, name, f.read())


def main():
    kept_seeds()
    work = tempfile.mkdtemp()
    try:
        smp_seeds()
        nordic_seeds()
        exchange_seeds()
        shrunk = image_seeds(work)
        compressed_seeds(work)
        package_seeds(shrunk)
        text_seeds()
        command_line_seeds()
        dbus_seeds()
    finally:
        shutil.rmtree(work)
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    total = 0
    for target, seeds in sorted(corpus.items()):
        os.makedirs(os.path.join(OUT, target))
        for name, data in sorted(seeds.items()):
            with open(os.path.join(OUT, target, name), "wb") as f:
                f.write(data)
            total += len(data)
    print(f"gen-fuzz-corpus: {sum(len(s) for s in corpus.values())} seeds for {len(corpus)} targets, "
          f"{total // 1024} KiB, in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
