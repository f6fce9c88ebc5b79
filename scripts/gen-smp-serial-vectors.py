#!/usr/bin/env python3
"""Regenerate Tests/Vectors/smp-serial/smp-serial-vectors.json: SMP console framing made by smpclient.

The Swift tests read the JSON file; Python is needed only to regenerate it:

    python3 -m venv /tmp/smpvenv
    /tmp/smpvenv/bin/pip install smp smpclient cbor2 pyserial   # pyserial: smpclient's serial extra
    /tmp/smpvenv/bin/python scripts/gen-smp-serial-vectors.py

Every byte in the file comes from smpclient or the `smp` package it uses; nothing is framed here:
- crc       CRC-16/XMODEM of a few inputs, from `smp.packet.crc16_func` (crcmod's "xmodem").
- frames    packets built with the `smp` models, framed by smpclient's `SMPSerialTransport.send`
            (default strategy, after `initialize(2475)` as if the device had reported its
            buf_size) and by `smp.packet.encode` at other line lengths. smp's `line_length` keeps
            4 bytes for marker and newline where 3 are needed, so its `line_length=N` writes lines
            of at most N - 1 bytes: "maximumLineLength" is that N - 1, the line limit as Zephyr
            counts it (MCUMGR_SERIAL_MAX_FRAME). Each packet is checked to decode back through
            `smp.packet.decode`.
- streams   byte streams mixing log text and frames, read back through smpclient's own receive
            path (`SMPSerialTransport.receive` and `read_serial` on a fake port that returns the
            stream in chunks of each size pattern listed, all giving the same result): the
            packets it decoded and the text it set aside.
- rejected  garbled lines that `smp.packet.decode` refuses, with the exception it raised, each
            followed in its stream by a good frame; the reason our decoder must give is named by
            hand (smp stops at the first error, ours resynchronises).
- raw       packets as `SMPSerialRawTransport.send` writes them (no framing), back to back.

Deterministic: fixed packets and sequence numbers, no randomness.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from importlib.metadata import version
from pathlib import Path

from smp import image_management as im
from smp import os_management as om
from smp import packet as smppacket
from smpclient.transport.serial.encoded import SMPSerialTransport
from smpclient.transport.serial.unencoded import SMPSerialRawTransport

OUT = Path(__file__).resolve().parent.parent / "Tests" / "Vectors" / "smp-serial"
BUF_SIZE = 2475  # a typical CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE for serial uploads
SHA = hashlib.sha256(b"dfu test image").digest()


class FakePort:
    """Stands in for pyserial's `Serial`: records writes, replays reads chunk by chunk."""

    def __init__(self, chunks=()):
        self.written = bytearray()
        self.out_waiting = 0
        self.port = "fake"
        self._chunks = list(chunks)

    def write(self, data):
        self.written += data

    def read_all(self):
        return self._chunks.pop(0) if self._chunks else b""


def smpclient_lines(packet: bytes) -> list[bytes]:
    transport = SMPSerialTransport()
    transport._conn = FakePort()
    transport.initialize(BUF_SIZE)
    asyncio.run(transport.send(packet))
    written = bytes(transport._conn.written)
    lines = [line + b"\n" for line in written.split(b"\n")[:-1]]
    assert b"".join(lines) == written
    return lines


def decode_lines(lines: list[bytes]) -> bytes:
    decoder = smppacket.decode()
    next(decoder)
    for line in lines:
        try:
            decoder.send(line)
        except StopIteration as done:
            return bytes(done.value)
    raise AssertionError("smp did not finish the packet")


def packets():
    echo = lambda n, seq: om.EchoWriteRequest(d="x" * n, sequence=seq).BYTES  # 13 + n bytes, 24 <= n < 256
    p = [
        ("echo request", om.EchoWriteRequest(d="hello", sequence=1).BYTES),
        ("image upload chunk request, 1 KiB of data",
         im.ImageUploadWriteRequest(off=4096, data=bytes((i * 37 + 11) & 0xFF for i in range(1024)),
                                    sequence=2).BYTES),
        ("image upload first request with len and sha",
         im.ImageUploadWriteRequest(off=0, data=bytes(range(256)) * 2, len=524288, sha=SHA, image=0,
                                    sequence=3).BYTES),
        ("image state read request", im.ImageStatesReadRequest(sequence=4).BYTES),
        ("mcumgr params request", om.MCUMgrParametersReadRequest(sequence=5).BYTES),
        ("echo response", om.EchoWriteResponse(r="hello", sequence=1).BYTES),
        ("image upload response", im.ImageUploadWriteResponse(off=5120, sequence=2).BYTES),
    ]
    # Framed sizes (length + packet + CRC = 17 + n) around one and two full lines of 93 bytes.
    for n in (74, 75, 76, 77, 78, 167, 168, 169, 170, 171):
        p.append((f"echo request of {n} characters ({17 + n} bytes framed)", echo(n, 100 + n % 100)))
    return p


def frames():
    out = []
    for name, packet in packets():
        lines = smpclient_lines(packet)
        assert decode_lines(lines) == packet, name
        out.append({"name": name, "packet": packet.hex(), "maximumLineLength": 127,
                    "source": f"smpclient SMPSerialTransport.send after initialize({BUF_SIZE})",
                    "lines": [line.hex() for line in lines]})
    chosen = dict(packets())
    for name in ("echo request", "image upload chunk request, 1 KiB of data",
                 "echo request of 76 characters (93 bytes framed)"):
        for line_length in (8, 9, 16, 64, 128, 129, 200):
            lines = list(smppacket.encode(chosen[name], line_length=line_length))
            assert decode_lines(lines) == chosen[name], name
            out.append({"name": f"{name}, smp line_length {line_length}", "packet": chosen[name].hex(),
                        "maximumLineLength": line_length - 1,
                        "source": f"smp.packet.encode(line_length={line_length})",
                        "lines": [line.hex() for line in lines]})
    return out


def smpclient_reads(stream: bytes, chunk_sizes: list[int], packet_count: int):
    """Feed `stream` through smpclient's receive path in chunks; return its packets and text."""
    chunks, at, i = [], 0, 0
    while at < len(stream):
        size = chunk_sizes[i % len(chunk_sizes)]
        chunks.append(stream[at:at + size])
        at += size
        i += 1
    transport = SMPSerialTransport()
    transport._conn = FakePort(chunks)

    async def run():
        got = [await transport.receive() for _ in range(packet_count)]
        text = await transport.read_serial()
        while True:  # drain whatever is still unread
            more = await transport.read_serial()
            if not more:
                break
            text += more
        return got, text

    return asyncio.run(run())


def streams():
    p = dict(packets())
    echo = p["echo request"]
    upload = p["image upload chunk request, 1 KiB of data"]
    resp = p["echo response"]
    cases = [
        ("log lines around frames",
         [b"*** Booting Zephyr OS build v3.7.0 ***\r\n", ("frame", echo),
          b"[00:00:01.000,000] <inf> app: tick\n", ("frame", upload), b"uart:~$ ", ("frame", resp),
          b"[00:00:02.500,000] <wrn> app: done\n"]),
        ("log lines between a frame's lines",
         [b"[00:00:00.001,000] <inf> main: start\n", ("split", upload, [1, 3, 5]),
          b"[00:00:03.000,000] <err> flash: busy\n"]),
        ("prompt then frame then control bytes in text",
         [b"uart:~$ ", ("frame", resp), b"text with \x04 and \x06 alone\n", ("frame", echo), b"bye\n"]),
    ]
    out = []
    for name, parts in cases:
        stream, expected, count = bytearray(), [], 0
        for part in parts:
            if isinstance(part, bytes):
                stream += part
                continue
            # ("frame", packet) or ("split", packet, indices): text lines after those frame lines.
            packet, after = part[1], (part[2] if part[0] == "split" else [])
            for index, line in enumerate(smpclient_lines(packet)):
                stream += line
                if index in after:
                    stream += f"[log between lines {index}]\n".encode()
            expected.append(packet)
            count += 1
        chunkings = [[len(stream)], [1], [7, 64, 3]]
        readings = [smpclient_reads(bytes(stream), sizes, count) for sizes in chunkings]
        for got, text in readings:
            assert got == expected and text == readings[0][1], name
        got, text = readings[0]
        out.append({"name": name, "stream": bytes(stream).hex(), "chunkings": chunkings,
                    "packets": [g.hex() for g in got], "text": text.hex()})
    return out


def rejected():
    echo = dict(packets())["echo request"]
    good = smpclient_lines(echo)
    body = bytearray(smppacket.FRAME_LENGTH_STRUCT.pack(len(echo) + 2) + echo
                     + smppacket.CRC16_STRUCT.pack(smppacket.crc16_func(echo) ^ 0x0001))
    import base64
    bad_crc = smppacket.START_DELIMITER + base64.b64encode(bytes(body)) + b"\n"
    upload_lines = smpclient_lines(dict(packets())["image upload chunk request, 1 KiB of data"])
    cases = [
        ("CRC off by one bit", [bad_crc], "crcMismatch"),
        ("continuation line first", upload_lines[1:2], "continuationWithoutStart"),
        ("start line where a continuation belongs", upload_lines[:1] + good[:1], "interruptedByStart"),
    ]
    out = []
    for name, lines, reason in cases:
        decoder = smppacket.decode()
        next(decoder)
        error = None
        try:
            for line in lines:
                decoder.send(line)
        except StopIteration:
            raise AssertionError(f"smp accepted {name}")
        except Exception as e:  # noqa: BLE001 -- the exception class is the fact recorded
            error = type(e).__name__
        if error is None:
            # smp still waits for more (it does not look at the marker of a line it never gets).
            error = "incomplete"
        out.append({"name": name, "lines": [line.hex() for line in lines], "smpError": error,
                    "reason": reason, "then": [line.hex() for line in good], "packet": echo.hex()})
    return out


def raw():
    transport = SMPSerialRawTransport(mtu=BUF_SIZE)
    transport._conn = FakePort()
    chosen = [packet for _, packet in packets()[:6]]
    for packet in chosen:
        asyncio.run(transport.send(packet))
    assert bytes(transport._conn.written) == b"".join(chosen)
    # Read back packet by packet through smpclient's own length-prefixed receive.
    reader = SMPSerialRawTransport(mtu=BUF_SIZE)
    reader._conn = FakePort(chosen)
    got = [asyncio.run(reader.receive()) for _ in chosen]
    assert got == chosen
    return [{"name": "six packets back to back as SMPSerialRawTransport.send writes them",
             "stream": bytes(transport._conn.written).hex(), "packets": [g.hex() for g in got]}]


def main():
    logging.disable(logging.WARNING)
    OUT.mkdir(parents=True, exist_ok=True)
    crc_inputs = [b"", b"123456789", b"\x00", b"\xff" * 4, bytes(range(256))]
    doc = {
        "generator": "scripts/gen-smp-serial-vectors.py",
        "smp": version("smp"), "smpclient": version("smpclient"), "crcmod": version("crcmod"),
        "crc": [{"hex": data.hex(), "crc": smppacket.crc16_func(data)} for data in crc_inputs],
        "frames": frames(),
        "streams": streams(),
        "rejected": rejected(),
        "raw": raw(),
    }
    path = OUT / "smp-serial-vectors.json"
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
