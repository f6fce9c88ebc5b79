#!/usr/bin/env python3
"""Regenerate Tests/Vectors/cbor/*.json: CBOR and SMP test vectors from independent encoders.

The Swift tests read the JSON files; Python is needed only to regenerate them:

    python3 -m venv /tmp/cbor-venv
    /tmp/cbor-venv/bin/pip install cbor2 smpclient      # smpclient pulls in the `smp` package
    /tmp/cbor-venv/bin/python scripts/gen-cbor-vectors.py

Outputs (deterministic: no randomness, fixed sequence numbers):
- cbor-vectors.json  valid items encoded by cbor2 (plus hand-written Zephyr-style indefinite
  lengths and non-shortest heads) with the value each must decode to, and invalid inputs with
  the error our decoder must report.
- smp-vectors.json   whole SMP packets serialised by the `smp` package models that smpclient
  uses, with the fields they carry, plus the error-code tables of that package.

Values are written in a tagged JSON form so integers beyond 2**53 survive:
  {"uint": "N"} {"nint": "-N"} {"bytes": "hex"} {"text": s} {"array": [...]}
  {"map": [[k, v], ...]} {"bool": b} {"null": true}
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from importlib.metadata import version
from pathlib import Path

import cbor2
from smp import error as smp_error
from smp import header
from smp import image_management as im
from smp import os_management as om

OUT = Path(__file__).resolve().parent.parent / "Tests" / "Vectors" / "cbor"


def tagged(v):
    """A Python value as tagged JSON (bool before int: bool is an int subclass)."""
    if isinstance(v, bool):
        return {"bool": v}
    if v is None:
        return {"null": True}
    if isinstance(v, int):
        return {"uint": str(v)} if v >= 0 else {"nint": str(v)}
    if isinstance(v, (bytes, bytearray)):
        return {"bytes": bytes(v).hex()}
    if isinstance(v, str):
        return {"text": v}
    if isinstance(v, list):
        return {"array": [tagged(x) for x in v]}
    if isinstance(v, dict):
        return {"map": [[tagged(k), tagged(x)] for k, x in v.items()]}
    raise TypeError(type(v))


# --- Zephyr-style indefinite containers, written byte by byte -----------------------------------
# zcbor (ZCBOR_CANONICAL off, Zephyr's default) opens every map with 0xBF and every array with
# 0x9F and closes them with 0xFF; strings and integers stay definite and shortest.

def indef(v) -> bytes:
    if isinstance(v, dict):
        return b"\xbf" + b"".join(indef(k) + indef(x) for k, x in v.items()) + b"\xff"
    if isinstance(v, list):
        return b"\x9f" + b"".join(indef(x) for x in v) + b"\xff"
    return cbor2.dumps(v)


SHA = hashlib.sha256(b"dfu test image").digest()            # 32 bytes, like a real upload sha
HASH0 = hashlib.sha256(b"slot 0 image").digest()
HASH1 = hashlib.sha256(b"slot 1 image").digest()

STATE_RESPONSE = {
    "images": [
        {"slot": 0, "version": "1.0.0", "hash": HASH0, "bootable": True, "pending": False,
         "confirmed": True, "active": True, "permanent": False},
        {"slot": 1, "version": "1.1.0.7", "hash": HASH1, "bootable": True, "pending": True,
         "confirmed": False, "active": False, "permanent": False},
    ],
    "splitStatus": 0,
}

# smpclient's canonical key order for an off-0 upload request.
UPLOAD_FIRST = {"len": 524288, "off": 0, "sha": SHA, "data": bytes(range(256)) * 2, "image": 0}


def valid_vectors():
    v = []

    def add(name, value, reencode="definite", data=None):
        v.append({"name": name, "hex": (data if data is not None else cbor2.dumps(value)).hex(),
                  "value": tagged(value), "reencode": reencode})

    # Integers at every head-width boundary, both signs.
    for n in [0, 1, 10, 23, 24, 25, 100, 255, 256, 1000, 65535, 65536, 1000000, 2**32 - 1, 2**32,
              2**53 + 1, 2**63, 2**64 - 1]:
        add(f"uint {n}", n)
    for n in [-1, -10, -24, -25, -100, -256, -257, -1000, -65536, -65537, -2**32, -2**32 - 1,
              -2**63, -2**63 - 1, -2**64]:
        add(f"nint {n}", n)
    # Byte and text strings at length boundaries; non-ASCII text of 2, 3 and 4 UTF-8 bytes.
    for n in [0, 1, 23, 24, 255, 256, 1000]:
        add(f"bytes len {n}", bytes((i * 7) & 0xFF for i in range(n)))
    for s in ["", "a", "IETF", "\"\\", "\u00fc", "\u6c34", "\U00010151", "h\u00e9llo w\u00f6rld \u2713",
              "x" * 23, "y" * 24, "z" * 300]:
        add(f"text {s[:12]!r} ({len(s.encode())} bytes)", s)
    add("false", False)
    add("true", True)
    add("null", None)
    add("empty array", [])
    add("nested arrays", [1, [2, 3], [4, 5]])
    add("array of 25", list(range(1, 26)))
    add("empty map", {})
    add("map text keys", {"a": 1, "b": [2, 3]})
    add("map int keys", {1: 2, 3: 4, -1: "neg"})
    add("nested maps", {"a": {"b": {"c": [1, {"d": b"\x01\x02"}]}}, "e": None})
    add("map mixed values", {"off": 4096, "match": True, "rsn": "no slot", "x": -7})
    # Real SMP bodies.
    add("smp upload request off 0 with sha", UPLOAD_FIRST,
        data=cbor2.dumps(UPLOAD_FIRST, canonical=True))
    add("smp upload request later chunk", {"off": 1024, "data": b"\xaa" * 64},
        data=cbor2.dumps({"off": 1024, "data": b"\xaa" * 64}, canonical=True))
    add("smp state read response", STATE_RESPONSE)
    add("smp params response", {"buf_size": 2475, "buf_count": 4})
    add("smp v1 error", {"rc": 6, "rsn": "no slot"})
    add("smp v2 error", {"err": {"group": 1, "rc": 9}})

    # Zephyr-style indefinite containers (hand-built, see indef()).
    add("zephyr indefinite state read response", STATE_RESPONSE, "indefinite", indef(STATE_RESPONSE))
    add("zephyr indefinite upload response", {"off": 2475}, "indefinite", indef({"off": 2475}))
    add("zephyr indefinite v2 error", {"err": {"group": 1, "rc": 31}}, "indefinite",
        indef({"err": {"group": 1, "rc": 31}}))
    add("zephyr indefinite params response", {"buf_size": 2475, "buf_count": 4}, "indefinite",
        indef({"buf_size": 2475, "buf_count": 4}))
    # Written out in hex by hand: indefinite map, array, byte string and text string.
    add("hand indefinite map {_ off: 256}", {"off": 256}, "indefinite",
        bytes.fromhex("bf636f666619 0100ff".replace(" ", "")))
    add("hand indefinite array [_ 1, 2]", [1, 2], "indefinite", bytes.fromhex("9f0102ff"))
    add("hand empty indefinite map", {}, "indefinite", bytes.fromhex("bfff"))
    add("hand indefinite byte string (_ h'0102', h'030405')", b"\x01\x02\x03\x04\x05", None,
        bytes.fromhex("5f42010243030405ff"))
    add("hand indefinite byte string with no chunks", b"", None, bytes.fromhex("5fff"))
    add("hand indefinite text (_ \"h\u00e9\", \"llo\")", "h\u00e9llo", None,
        bytes.fromhex("7f6368c3a9636c6c6fff"))
    add("hand definite map holding indefinite array", {"a": [1, [2]]}, None,
        bytes.fromhex("a161619f01810 2ff".replace(" ", "")))
    # Non-shortest heads are well-formed; we accept them and re-encode shortest.
    add("hand non-shortest 5 in one byte", 5, None, bytes.fromhex("1805"))
    add("hand non-shortest 5 in eight bytes", 5, None, bytes.fromhex("1b0000000000000005"))
    add("hand non-shortest bytes length", b"\x01", None, bytes.fromhex("590001 01".replace(" ", "")))
    # cbor2 must agree with every vector it can read.
    for vec in v:
        data = bytes.fromhex(vec["hex"])
        assert tagged(cbor2.loads(data)) == vec["value"], vec["name"]
    return v


def invalid_vectors():
    v = []

    def add(name, hexstr, error, cbor2_rejects=True):
        data = bytes.fromhex(hexstr.replace(" ", ""))
        if cbor2_rejects:
            try:
                cbor2.loads(data)
            except Exception:
                pass
            else:
                sys.exit(f"cbor2 accepted invalid vector {name!r}")
        v.append({"name": name, "hex": data.hex(), "error": error})

    add("empty input", "", "truncated")
    add("uint head missing its byte", "18", "truncated")
    add("uint head missing bytes", "1a 0001", "truncated")
    add("byte string longer than input", "45 0102", "lengthExceedsInput")
    add("byte string claims 4 GiB", "5a ffffffff 00", "lengthExceedsInput")
    add("text claims 2^63 bytes", "7b 7fffffffffffffff 61", "lengthExceedsInput")
    add("array claims 2^64-1 items", "9b ffffffffffffffff", "lengthExceedsInput")
    add("map claims 2^64-1 entries", "bb ffffffffffffffff", "lengthExceedsInput")
    add("array count beyond input", "84 01 02", "lengthExceedsInput")
    add("map count beyond input", "a1 01", "lengthExceedsInput")
    add("map value missing at end of input", "a1 61 61", "truncated")
    add("unterminated indefinite array", "9f 01 02", "truncated")
    add("unterminated indefinite map", "bf 61 61 01", "truncated")
    add("unterminated indefinite bytes", "5f 41 01", "truncated")
    add("reserved additional info 28", "1c", "reservedAdditionalInfo")
    add("reserved additional info 30 on bytes", "5e", "reservedAdditionalInfo")
    add("break outside indefinite item", "ff", "unexpectedBreak")
    add("break as map value", "a1 61 61 ff", "unexpectedBreak")
    add("indefinite unsigned integer", "1f", "invalidIndefiniteLength")
    add("indefinite negative integer", "3f", "invalidIndefiniteLength")
    add("integer chunk in indefinite bytes", "5f 01 ff", "invalidChunk")
    add("text chunk in indefinite bytes", "5f 61 61 ff", "invalidChunk")
    add("nested indefinite chunk", "5f 5f ff ff", "invalidChunk")
    add("invalid UTF-8", "62 c3 28", "invalidUTF8")
    add("UTF-8 surrogate", "63 eda080", "invalidUTF8")
    add("code point split across text chunks", "7f 61 c3 61 a9 ff", "invalidUTF8")
    add("indefinite map ends after key", "bf 61 61 ff", "missingMapValue")
    add("duplicate map key", "a2 61 61 01 61 61 02", "duplicateMapKey", cbor2_rejects=False)
    add("depth bomb of 20 arrays", "81" * 20 + "00", "depthLimitExceeded", cbor2_rejects=False)
    add("depth bomb of 10000 indefinite arrays", "9f" * 10000, "depthLimitExceeded")
    add("trailing byte", "01 02", "trailingBytes", cbor2_rejects=False)
    # Valid CBOR outside the subset: must be refused, not crash.
    add("half float", cbor2.dumps(1.5).hex(), "unsupported", cbor2_rejects=False)
    add("double float", cbor2.dumps(3.14159).hex(), "unsupported", cbor2_rejects=False)
    add("float in a map", cbor2.dumps({"off": 1.0}).hex(), "unsupported", cbor2_rejects=False)
    add("tag 1 epoch time", cbor2.dumps(cbor2.CBORTag(1, 1363896240)).hex(), "unsupported",
        cbor2_rejects=False)
    add("undefined", cbor2.dumps(cbor2.undefined).hex(), "unsupported", cbor2_rejects=False)
    add("simple value 16", "f0", "unsupported", cbor2_rejects=False)
    add("simple value 255", "f8 ff", "unsupported", cbor2_rejects=False)
    return v


# --- SMP packets from the `smp` models smpclient sends and parses -------------------------------

def packet(name, model, kind, fields, exact=True):
    """`exact`: our typed body, encoded with canonical key order (what `smp` writes), must
    reproduce the bytes. False where `smp` types a field differently from Zephyr (reset `force`
    as 0/1, not a boolean) or omits what we always send (state flags that are false)."""
    h = model.header
    return {"name": name, "kind": kind, "hex": model.BYTES.hex(), "exact": exact,
            "version": int(h.version), "op": int(h.op), "group": int(h.group_id),
            "sequence": h.sequence, "command": int(h.command_id), "fields": fields}


def error_packet(name, _unused, model_cls, body, op, group, command, sequence, ver, fields):
    """Error models have no op of their own: build the header as a server would, serialise the
    body as `smp` does (canonical cbor2), and let the model parse the result back as a check."""
    data = cbor2.dumps(body, canonical=True)
    h = header.Header(op=op, version=ver, flags=header.Flag(0), length=len(data), group_id=group,
                      sequence=sequence, command_id=command)
    raw = bytes(h) + data
    model_cls.loads(raw)
    return {"name": name, "kind": "SMPError", "hex": raw.hex(), "exact": True, "version": int(ver),
            "op": int(op), "group": int(group), "sequence": sequence, "command": command,
            "fields": fields}


def hx(b):
    return b.hex()


def smp_vectors():
    first = bytes(range(200))
    state = [im.ImageState(slot=0, version="1.0.0", hash=HASH0, bootable=True, confirmed=True,
                           active=True),
             im.ImageState(slot=1, version="1.1.0", hash=HASH1, bootable=True, pending=True)]
    p = [
        packet("upload off 0 with len, sha, image",
               im.ImageUploadWriteRequest(off=0, data=first, len=524288, sha=SHA, image=0, sequence=1),
               "ImageUploadRequest",
               {"off": 0, "data": hx(first), "len": 524288, "sha": hx(SHA), "image": 0}),
        packet("upload off 0 with upgrade",
               im.ImageUploadWriteRequest(off=0, data=first[:64], len=70000, sha=SHA, upgrade=True,
                                          sequence=2),
               "ImageUploadRequest",
               {"off": 0, "data": hx(first[:64]), "len": 70000, "sha": hx(SHA), "upgrade": True}),
        packet("upload later chunk", im.ImageUploadWriteRequest(off=70000, data=b"\x5a" * 300, sequence=3),
               "ImageUploadRequest", {"off": 70000, "data": hx(b"\x5a" * 300)}),
        packet("upload v1 header", im.ImageUploadWriteRequest(off=4096, data=b"\x01" * 10, sequence=4,
                                                              version=0),
               "ImageUploadRequest", {"off": 4096, "data": hx(b"\x01" * 10)}),
        packet("state read", im.ImageStatesReadRequest(sequence=5), "ImageStateReadRequest", {}),
        packet("state write test", im.ImageStatesWriteRequest(hash=HASH1, sequence=6),
               "ImageStateWriteRequest", {"hash": hx(HASH1)}),
        packet("state write confirm", im.ImageStatesWriteRequest(confirm=True, sequence=7),
               "ImageStateWriteRequest", {"confirm": True}),
        packet("state write confirm with hash",
               im.ImageStatesWriteRequest(hash=HASH1, confirm=True, sequence=8),
               "ImageStateWriteRequest", {"hash": hx(HASH1), "confirm": True}),
        packet("erase slot 1", im.ImageEraseRequest(slot=1, sequence=9), "ImageEraseRequest", {"slot": 1}),
        packet("erase default slot", im.ImageEraseRequest(sequence=10), "ImageEraseRequest", {}),
        packet("reset", om.ResetWriteRequest(sequence=11), "OSResetRequest", {}),
        packet("reset force 1", om.ResetWriteRequest(force=1, sequence=12), "OSResetRequest",
               {"force": True}, exact=False),
        packet("mcumgr params", om.MCUMgrParametersReadRequest(sequence=13), "MCUmgrParametersRequest", {}),
        packet("echo", om.EchoWriteRequest(d="hello \u2713", sequence=14), "OSEchoRequest",
               {"text": "hello \u2713"}),
        packet("bootloader info", om.BootloaderInformationReadRequest(sequence=15),
               "BootloaderInfoRequest", {}),
        packet("bootloader mode query", om.BootloaderInformationReadRequest(query="mode", sequence=16),
               "BootloaderInfoRequest", {"query": "mode"}),
        packet("sequence 255", om.EchoWriteRequest(d="x", sequence=255), "OSEchoRequest", {"text": "x"}),
        # Responses as the `smp` models write them (canonical key order, flags only when set).
        packet("upload response", im.ImageUploadWriteResponse(off=2475, sequence=1), "ImageUploadResponse",
               {"off": 2475}),
        packet("upload final response with match",
               im.ImageUploadWriteResponse(off=524288, match=True, sequence=2), "ImageUploadResponse",
               {"off": 524288, "match": True}),
        packet("state read response", im.ImageStatesReadResponse(images=state, sequence=5),
               "ImageStateResponse",
               {"images": [{"slot": 0, "version": "1.0.0", "hash": hx(HASH0), "bootable": True,
                            "confirmed": True, "active": True},
                           {"slot": 1, "version": "1.1.0", "hash": hx(HASH1), "bootable": True,
                            "pending": True}]}, exact=False),
        packet("params response", om.MCUMgrParametersReadResponse(buf_size=2475, buf_count=4, sequence=13),
               "MCUmgrParametersResponse", {"buf_size": 2475, "buf_count": 4}),
        packet("echo response", om.EchoWriteResponse(r="hello \u2713", sequence=14), "OSEchoResponse",
               {"text": "hello \u2713"}),
        error_packet("v1 error response", smp_error.ErrorV1, im.ImageManagementErrorV1,
                     {"rc": int(smp_error.MGMT_ERR.EBADSTATE), "rsn": "no slot"}, header.OP.WRITE_RSP,
                     header.GroupId.IMAGE_MANAGEMENT, 0, 6, header.Version.V1, {"rc": 6, "rsn": "no slot"}),
        error_packet("v2 image error response", None, im.ImageManagementErrorV2,
                     {"err": {"group": 1, "rc": int(im.IMG_MGMT_ERR.NO_FREE_SLOT)}}, header.OP.WRITE_RSP,
                     header.GroupId.IMAGE_MANAGEMENT, 1, 1, header.Version.V2, {"group": 1, "rc": 9}),
        error_packet("v2 os error response", None, om.OSManagementErrorV2,
                     {"err": {"group": 0, "rc": int(om.OS_MGMT_RET_RC.QUERY_YIELDS_NO_ANSWER)}},
                     header.OP.READ_RSP, header.GroupId.OS_MANAGEMENT, 8, 16, header.Version.V2,
                     {"group": 0, "rc": 3}),
    ]
    tables = {
        "mcumgr": {e.name: int(e) for e in smp_error.MGMT_ERR},
        "image": {e.name: int(e) for e in im.IMG_MGMT_ERR},
        "os": {e.name: int(e) for e in om.OS_MGMT_RET_RC},
    }
    return p, tables


def main():
    # `smp` logs a warning when a v1 header overrides its default version; expected here.
    logging.disable(logging.WARNING)
    OUT.mkdir(parents=True, exist_ok=True)
    meta = {"generator": "scripts/gen-cbor-vectors.py", "cbor2": version("cbor2")}
    cbor_doc = dict(meta, valid=valid_vectors(), invalid=invalid_vectors())
    packets, tables = smp_vectors()
    smp_doc = dict(meta, smp=version("smp"), smpclient=version("smpclient"), packets=packets,
                   errorTables=tables)
    for name, doc in [("cbor-vectors.json", cbor_doc), ("smp-vectors.json", smp_doc)]:
        (OUT / name).write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
