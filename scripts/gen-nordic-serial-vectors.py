#!/usr/bin/env python3
"""Regenerate Tests/Vectors/nordic-serial/nrfutil-serial-vectors.json: Nordic Secure DFU over a
serial line as pc-nrfutil 6.1.7 writes and reads it.

The Swift tests read the JSON file; Python is needed only to regenerate it:

    python3 -m venv /tmp/nrfvenv
    /tmp/nrfvenv/bin/pip install nrfutil==6.1.7 --no-deps --ignore-requires-python
    /tmp/nrfvenv/bin/pip install pyserial                       # dfu_transport_serial imports it
    /tmp/nrfvenv/bin/pip install pc_ble_driver_py --no-deps     # only for its NordicSemiException
    /tmp/nrfvenv/bin/python scripts/gen-nordic-serial-vectors.py

Every byte the host sends comes from nrfutil's own code: `Slip.encode` and the request builders of
`DfuTransportSerial` (called on an instance whose serial port is a recording stand-in, so no port
is opened). The device's replies are laid out here after `response_send` in the nRF5 SDK's
`nrf_dfu_serial.c` and framed with nrfutil's `Slip.encode`; what nrfutil parsed from each is
recorded beside it. Deterministic: fixed data and a seeded generator.

Outputs, in one file:
- slip        payloads and nrfutil's encoding of each.
- slipDecode  byte streams and the frames nrfutil's decoder (`Slip.decode_add_byte`, driven as
              `DFUAdapter.get_message` drives it) takes from them; `agrees` is false where our
              decoder keeps a frame nrfutil loses (ESC followed by END).
- requests    each request nrfutil writes (one frame per `send_message`), with the device reply
              it was given and what it parsed from it.
- chunking    the Write Object payload sizes `__stream_data` uses for a range of MTUs.
- session     a whole update (ping, PRN, MTU, init packet, firmware) between nrfutil and a small
              stand-in bootloader written here: every frame each side wrote.
"""

from __future__ import annotations

import binascii
import json
import random
import struct
from importlib.metadata import version
from pathlib import Path

from nordicsemi.dfu.dfu_transport_serial import DFUAdapter, DfuTransportSerial, Slip

OUT = Path(__file__).resolve().parent.parent / "Tests" / "Vectors" / "nordic-serial"

OP = DfuTransportSerial.OP_CODE
RESPONSE = OP["Response"]
SUCCESS = 0x01


def hexs(data) -> str:
    return bytes(data).hex()


class RecordingPort:
    """Stands in for serial.Serial: keeps each write apart and serves queued reply bytes."""

    def __init__(self):
        self.writes: list[bytes] = []
        self.incoming = bytearray()
        self.on_write = None

    def write(self, data):
        data = bytes(data)
        self.writes.append(data)
        if self.on_write:
            self.on_write(data)

    def read(self, n):
        chunk = bytes(self.incoming[:n])
        del self.incoming[:n]
        return chunk

    def queue(self, frame: bytes):
        self.incoming += frame


def transport(prn=0, mtu=0):
    """A DfuTransportSerial wired to a RecordingPort instead of a real port (open() is not called)."""
    t = DfuTransportSerial("recording-port", prn=prn)
    port = RecordingPort()
    t.serial_port = port
    t.dfu_adapter = DFUAdapter(port)
    t.mtu = mtu
    return t, port


def call(t, name, *args, **kwargs):
    """One of DfuTransportSerial's private request methods (`__ping` is `_DfuTransportSerial__ping`)."""
    return getattr(t, "_DfuTransportSerial__" + name)(*args, **kwargs)


def reply(op, payload=b"", result=SUCCESS) -> bytes:
    """A device reply laid out as response_send does, framed by nrfutil's encoder."""
    return bytes(Slip.encode([RESPONSE, op, result] + list(payload)))


# --- SLIP ----------------------------------------------------------------------------------------

def slip_payloads():
    rng = random.Random(0x5117)
    fixed = [
        ("empty", b""),
        ("plain", b"\x09\x01"),
        ("END", b"\xc0"),
        ("ESC", b"\xdb"),
        ("ESC_END alone", b"\xdc"),
        ("ESC_ESC alone", b"\xdd"),
        ("ESC then ESC_END", b"\xdb\xdc"),
        ("ESC then ESC_ESC", b"\xdb\xdd"),
        ("all END", b"\xc0" * 40),
        ("all ESC", b"\xdb" * 40),
        ("END ESC alternating", b"\xc0\xdb" * 20),
        ("every byte value", bytes(range(256))),
        ("every byte value reversed", bytes(reversed(range(256)))),
    ]
    specials = [0xC0, 0xDB, 0xDC, 0xDD]
    randoms = []
    for i in range(24):
        n = rng.randint(1, 300)
        if i % 3 == 0:
            data = bytes(rng.choice(specials) for _ in range(n))
        else:
            data = bytes(rng.randrange(256) for _ in range(n))
        randoms.append((f"random {i} ({n} bytes)", data))
    return [{"name": name, "payload": hexs(data), "encoded": hexs(Slip.encode(data))}
            for name, data in fixed + randoms]


def nrfutil_frames(stream: bytes):
    """The frames nrfutil's decoder takes from `stream`, driven as DFUAdapter.get_message drives it
    (each call starts in the decoding state with an empty buffer). Empty frames are left out:
    get_message returns them as an empty list, which every caller treats as no message."""
    frames, state, data = [], Slip.SLIP_STATE_DECODING, []
    for byte in stream:
        finished, state, data = Slip.decode_add_byte(byte, data, state)
        if finished:
            if data:
                frames.append(bytes(data))
            state, data = Slip.SLIP_STATE_DECODING, []
    return frames


def slip_streams():
    enc = lambda data: bytes(Slip.encode(data))
    cases = [
        ("two frames", enc(b"\x60\x09\x01\x01") + enc(b"\x60\x07\x01\x83\x00"), True),
        ("escapes across frames", enc(b"\xc0\xdb\xc0") + enc(b"\xdb") + enc(b"\xdc\xdd"), True),
        ("empty frames between", b"\xc0\xc0" + enc(b"\x01") + b"\xc0" + enc(b"\x02"), True),
        ("noise closed by END before a frame", b"\x00\x7f\x55\xc0" + enc(b"\x60\x04\x01"), True),
        ("invalid escape, resynchronised at the frame's END",
         b"\x60\xdb\x41\x42\x43\xc0" + enc(b"\x60\x09\x01\x05"), True),
        ("ESC ESC is invalid", b"\x01\xdb\xdb\x02\xc0" + enc(b"\x03"), True),
        ("ESC then END: nrfutil also loses the next frame",
         b"\x60\x03\xdb\xc0" + enc(b"\x60\x04\x01") + enc(b"\x60\x0c\x01"), False),
    ]
    return [{"name": name, "stream": hexs(stream), "nrfutilFrames": [hexs(f) for f in nrfutil_frames(stream)],
             "agrees": agrees} for name, stream, agrees in cases]


# --- Requests --------------------------------------------------------------------------------------

def request_vectors():
    out = []

    def record(name, request, t, port, parsed):
        out.append({"name": name, "request": request, "frames": [hexs(w) for w in port.writes],
                    "reply": hexs(port.incoming_given), "parsed": parsed})

    def run(name, request, reply_bytes, action, prn=0, mtu=0, ping_id=None):
        t, port = transport(prn=prn, mtu=mtu)
        if ping_id is not None:
            t.ping_id = ping_id
        port.queue(reply_bytes)
        port.incoming_given = bytes(reply_bytes)
        parsed = action(t)
        record(name, request, t, port, parsed)

    # Ping: nrfutil increments its id before sending; the device echoes it (on_ping_request).
    for start in [0, 0xBF, 0xDA, 0xFF]:
        sent = (start + 1) % 256
        run(f"ping {sent}", {"kind": "ping", "id": sent}, reply(OP["Ping"], [sent]),
            lambda t: {"ok": call(t, "ping")}, ping_id=start)
    run("ping refused", {"kind": "ping", "id": 1}, reply(OP["Ping"], result=0x02),
        lambda t: {"ok": call(t, "ping")})

    for prn in [0, 10, 0xDBC0]:
        run(f"set PRN {prn}", {"kind": "setPRN", "value": prn}, reply(OP["SetPRN"]),
            lambda t: (call(t, "set_prn"), {"value": t.prn})[1], prn=prn)

    for mtu in [131, 2051, 0xC0]:
        run(f"get MTU ({mtu})", {"kind": "getMTU"}, reply(OP["GetSerialMTU"], struct.pack("<H", mtu)),
            lambda t: (call(t, "get_mtu"), {"mtu": t.mtu})[1])

    for obj, info in [(1, (512, 0, 0)), (2, (4096, 0x1000, 0xC0DBC0DB)), (2, (0xC0, 0xDB, 0xDDDC))]:
        run(f"select object {obj} {info}", {"kind": "select", "object": obj},
            reply(OP["ReadObject"], struct.pack("<III", *info)),
            lambda t, obj=obj: call(t, "select_object", obj))

    for obj, size in [(1, 141), (2, 4096), (2, 0xC0DB)]:
        run(f"create object {obj} of {size}", {"kind": "create", "object": obj, "size": size},
            reply(OP["CreateObject"]),
            lambda t, obj=obj, size=size: {"ok": call(t, "create_object", obj, size) is None})

    # A write object of 100 bytes (with END and ESC among them), as __stream_data sends it: slices
    # of (mtu-1)//2-1 bytes, then Calculate Checksum to check offset and CRC.
    data = bytes((0xB0 + i) & 0xFF for i in range(100))
    crc = binascii.crc32(data) & 0xFFFFFFFF
    checksum = reply(OP["CalcChecSum"], struct.pack("<II", len(data), crc))
    for mtu in [131, 2051, 23]:
        run(f"write object of 100 bytes, MTU {mtu}", {"kind": "write", "data": hexs(data), "mtu": mtu},
            checksum, lambda t: {"crc": call(t, "stream_data", data=data)}, mtu=mtu)
    # With PRN 1 every slice is answered by a receipt (a Calculate Checksum response).
    receipts = b"".join(reply(OP["CalcChecSum"], struct.pack("<II", end, binascii.crc32(data[:end]) & 0xFFFFFFFF))
                        for end in [64, 100])
    run("write object of 100 bytes, MTU 131, PRN 1", {"kind": "write", "data": hexs(data), "mtu": 131, "prn": 1},
        receipts + checksum, lambda t: {"crc": call(t, "stream_data", data=data)}, prn=1, mtu=131)

    run("calculate checksum", {"kind": "calculateChecksum"},
        reply(OP["CalcChecSum"], struct.pack("<II", 0xC0, 0xDBDBC0C0)), lambda t: call(t, "calculate_checksum"))
    run("execute", {"kind": "execute"}, reply(OP["Execute"]), lambda t: {"ok": call(t, "execute") is None})
    return out


def chunking_vectors():
    out = []
    for mtu, length in [(5, 7), (6, 7), (7, 9), (8, 9), (23, 100), (64, 100), (130, 300), (131, 300),
                        (132, 300), (257, 300), (2051, 2100)]:
        data = bytes(i & 0xFF for i in range(length))
        t, port = transport(mtu=mtu)
        crc = binascii.crc32(data) & 0xFFFFFFFF
        port.queue(reply(OP["CalcChecSum"], struct.pack("<II", len(data), crc)))
        call(t, "stream_data", data=data)
        sizes = [len(nrfutil_frames(w)[0]) - 1 for w in port.writes if w[0] == OP["WriteObject"]]
        out.append({"mtu": mtu, "dataLength": len(data), "writeSizes": sizes})
    return out


# --- A whole session against a stand-in bootloader ---------------------------------------------------

class StandInBootloader:
    """Answers as an SDK bootloader would, just enough for nrfutil to run a whole update:
    objects, offsets, cumulative CRCs and packet receipts (dfu_req_handler_rsp_clbk)."""

    def __init__(self, port, mtu, command_max, data_max):
        self.port, self.mtu = port, mtu
        self.max = {1: command_max, 2: data_max}
        self.received = {1: b"", 2: b""}   # bytes held per object type (data cumulative)
        self.committed = {1: 0, 2: 0}
        self.current = 1
        self.prn = self.prn_count = 0
        self.replies: list[bytes] = []
        self.state, self.buffer = Slip.SLIP_STATE_DECODING, []
        port.on_write = self.receive

    def receive(self, chunk):
        for byte in chunk:
            finished, self.state, self.buffer = Slip.decode_add_byte(byte, self.buffer, self.state)
            if finished:
                self.handle(bytes(self.buffer))
                self.state, self.buffer = Slip.SLIP_STATE_DECODING, []

    def answer(self, op, payload=b"", result=SUCCESS):
        frame = reply(op, payload, result)
        self.replies.append(frame)
        self.port.queue(frame)

    def checksum(self):
        held = self.received[self.current]
        return struct.pack("<II", len(held), binascii.crc32(held) & 0xFFFFFFFF)

    def handle(self, frame):
        op, params = frame[0], frame[1:]
        if op == OP["Ping"]:
            self.answer(op, params[:1])
        elif op == OP["SetPRN"]:
            self.prn = self.prn_count = struct.unpack("<H", params)[0]
            self.answer(op)
        elif op == OP["GetSerialMTU"]:
            self.answer(op, struct.pack("<H", self.mtu))
        elif op == OP["ReadObject"]:
            self.current = params[0]
            held = self.received[self.current]
            self.answer(op, struct.pack("<III", self.max[self.current], len(held),
                                        binascii.crc32(held) & 0xFFFFFFFF))
        elif op == OP["CreateObject"]:
            self.current = params[0]
            self.prn_count = self.prn
            if self.current == 1:
                self.received[1] = b""
            else:
                self.received[2] = self.received[2][:self.committed[2]]
            self.answer(op)
        elif op == OP["WriteObject"]:
            self.received[self.current] += params
            self.prn_count -= 1
            if self.prn and self.prn_count == 0:
                self.prn_count = self.prn
                self.answer(OP["CalcChecSum"], self.checksum())
        elif op == OP["CalcChecSum"]:
            self.answer(op, self.checksum())
        elif op == OP["Execute"]:
            self.committed[self.current] = len(self.received[self.current])
            self.answer(op)
        else:
            self.answer(op, result=0x02)


def session_vector():
    rng = random.Random(0xDF0)
    init_packet = bytes(rng.randrange(256) for _ in range(40)) + b"\xc0\xdb"
    firmware = bytes(rng.choice([0xC0, 0xDB, rng.randrange(256)]) for _ in range(600))
    prn, mtu = 3, 131
    t, port = transport(prn=prn)
    device = StandInBootloader(port, mtu=mtu, command_max=512, data_max=256)
    # The order open() uses once the port is open: ping until answered, set PRN, get MTU.
    assert call(t, "ping")
    call(t, "set_prn")
    call(t, "get_mtu")
    t.send_init_packet(init_packet)
    t.send_firmware(firmware)
    assert device.committed == {1: len(init_packet), 2: len(firmware)}
    return {
        "prn": prn, "mtu": mtu, "commandMaxSize": 512, "dataMaxSize": 256,
        "initPacket": hexs(init_packet), "firmware": hexs(firmware),
        "hostFrames": [hexs(w) for w in port.writes],
        "deviceFrames": [hexs(r) for r in device.replies],
    }


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    doc = {
        "generator": "scripts/gen-nordic-serial-vectors.py",
        "nrfutil": version("nrfutil"),
        "pyserial": version("pyserial"),
        "slip": slip_payloads(),
        "slipDecode": slip_streams(),
        "requests": request_vectors(),
        "chunking": chunking_vectors(),
        "session": session_vector(),
    }
    path = OUT / "nrfutil-serial-vectors.json"
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
