"""One check of an SMP server with smpclient (7.3.0), for scripts/smpclient-crosscheck.sh (UDP) and
scripts/smpclient-serial-crosscheck.sh (a serial line).

    python smpclient-crosscheck.py CHECK ADDR [ARGS...]

ADDR is HOST, reached over UDP at HOST:1337 (smpclient's UDP transport has no port option), or
serial:PATH[,raw][,baud=N]: smpclient's SMPSerialTransport (Zephyr's console framing) on the serial
port PATH, or its SMPSerialRawTransport with `raw`; baud 115200 unless given. Each check prints one
line saying what it saw, and exits 0 when the server answered as Zephyr would, 1 otherwise. smpclient is
used directly rather than through smpmgr because smpmgr's `image state-write` exits 0 even when the
device answers with an SMP error (reference §8); here every reply is checked for what it must hold.

Checks:
  echo ADDR                      echo a text, expect it back
  params ADDR BUF_SIZE BUF_COUNT MCUmgr parameters
  upload ADDR FILE               upload FILE with smpclient's own upload routine (sha in the first packet);
                                 says how long the upload took from its first request
  upload-noisy ADDR FILE         upload over a console line the device also logs on: smpclient must
                                 set the log lines aside and still finish; says how many it saw
  state ADDR EXPECT...           image state list; each EXPECT is SLOT:VERSION:FLAGS[:HASH], FLAGS a
                                 comma list of active/inactive, confirmed/unconfirmed, pending/not-pending
  test ADDR HASH                 mark the image with HASH for test; expect slot 1 pending
  reset ADDR                     reset; expect a success reply
  wait-up ADDR SECONDS           echo until the device answers again (it is down while MCUboot swaps)
  confirm ADDR                   confirm the running image; expect slot 0 confirmed
  empty ADDR SLOT                the state list has no entry for SLOT (it was erased)
  refuse-magic ADDR FILE         first upload packet of FILE with its header magic broken: expect err
                                 {group 1, rc 23} (IMG_MGMT_ERR_INVALID_IMAGE_HEADER_MAGIC)
  refuse-size ADDR FILE LEN      first upload packet of FILE announcing LEN bytes: expect err
                                 {group 1, rc 30} (IMG_MGMT_ERR_INVALID_IMAGE_TOO_LARGE)
"""

import asyncio
import hashlib
import logging
import sys
import time

from smp.image_management import IMG_MGMT_ERR
from smpclient import SMPClient
from smpclient.generics import error_v2, success
from smpclient.requests.image_management import ImageStatesRead, ImageStatesWrite, ImageUploadWrite
from smpclient.requests.os_management import EchoWrite, MCUMgrParametersRead, ResetWrite
from smpclient.exceptions import SMPBadSequence
from smpclient.transport.udp import SMPUDPTransport
from smp_replies import Failed, describe, expect_success


def client_for(addr, timeout):
    """An SMPClient for ADDR: HOST over UDP, or serial:PATH[,raw][,baud=N]."""
    if not addr.startswith("serial:"):
        return SMPClient(SMPUDPTransport(), addr, timeout_s=timeout)
    # Imported here: the UDP checks need no pyserial.
    from smpclient.transport.serial import SMPSerialRawTransport, SMPSerialTransport
    path, *options = addr[len("serial:"):].split(",")
    raw, baud = False, 115200
    for option in options:
        if option == "raw":
            raw = True
        elif option.startswith("baud="):
            baud = int(option[len("baud="):])
        else:
            raise Failed(f"unknown serial option {option!r} in {addr!r}")
    # A pseudo-terminal ignores the rate, but a real port would not: set it as for one.
    transport = SMPSerialRawTransport(baudrate=baud) if raw else SMPSerialTransport(baudrate=baud)
    return SMPClient(transport, path, timeout_s=timeout)


def slots_text(images):
    parts = []
    for image in images:
        flags = [name for name in ("active", "confirmed", "pending") if getattr(image, name, False)]
        parts.append(f"slot {image.slot} {image.version} [{','.join(flags) or '-'}] {image.hash.hex()[:16]}…")
    return "; ".join(parts)


async def connected(addr, timeout=5.0):
    client = client_for(addr, timeout)
    await client.connect()
    return client


async def check_echo(addr):
    text = "smpclient-crosscheck"
    client = await connected(addr)
    try:
        response = expect_success(await client.request(EchoWrite(d=text)), "echo")
    finally:
        await client.disconnect()
    if response.r != text:
        raise Failed(f"echo came back as {response.r!r}")
    return f"echo {text!r} came back"


async def check_params(addr, buf_size, buf_count):
    client = await connected(addr)
    try:
        response = expect_success(await client.request(MCUMgrParametersRead()), "params")
    finally:
        await client.disconnect()
    if (response.buf_size, response.buf_count) != (int(buf_size), int(buf_count)):
        raise Failed(f"buf_size {response.buf_size}, buf_count {response.buf_count}; expected {buf_size}, {buf_count}")
    return f"buf_size {response.buf_size}, buf_count {response.buf_count}"


async def uploaded(client, image):
    """Uploads `image` with smpclient's own routine; the seconds from its first request and the
    number of requests."""
    started = time.monotonic()
    requests = 0
    last = None
    try:
        async for offset in client.upload(image):
            requests += 1
            last = offset
    except Exception as e:  # smpclient raises SMPUploadError, TimeoutError, validation errors
        raise Failed(f"upload stopped after {requests} replies at off {last}: {type(e).__name__}: {e}")
    if last != len(image):
        raise Failed(f"upload ended at off {last} of {len(image)}")
    return time.monotonic() - started, requests


async def check_upload(addr, path):
    with open(path, "rb") as f:
        image = f.read()
    client = await connected(addr)
    try:
        seconds, requests = await uploaded(client, image)
    finally:
        await client.disconnect()
    return f"{len(image)} bytes in {requests} requests, {seconds:.2f} s"


async def check_upload_noisy(addr, path):
    with open(path, "rb") as f:
        image = f.read()
    client = await connected(addr)
    try:
        seconds, requests = await uploaded(client, image)
        # What smpclient's decoder set aside as the console's own text, between SMP frames.
        text = (await client._transport.read_serial()).decode("utf-8", "replace")
    finally:
        await client.disconnect()
    logs = [line for line in text.splitlines() if "<inf>" in line]
    if not logs:
        raise Failed(f"the upload finished but smpclient saw no log line on the console ({text[:80]!r})")
    return f"{len(image)} bytes in {requests} requests, {seconds:.2f} s, {len(logs)} log lines set aside ({logs[0].strip()!r})"


async def state(addr):
    client = await connected(addr)
    try:
        response = expect_success(await client.request(ImageStatesRead()), "state read")
    finally:
        await client.disconnect()
    return response.images


async def check_state(addr, *expectations):
    images = await state(addr)
    for expectation in expectations:
        parts = expectation.split(":")
        slot, version, flags = int(parts[0]), parts[1], parts[2].split(",")
        hash_hex = parts[3].lower() if len(parts) > 3 else None
        image = next((i for i in images if i.slot == slot), None)
        if image is None:
            raise Failed(f"no slot {slot} in the state list ({slots_text(images)})")
        problems = []
        if image.version != version:
            problems.append(f"version {image.version}, expected {version}")
        if hash_hex is not None and image.hash.hex() != hash_hex:
            problems.append(f"hash {image.hash.hex()}, expected {hash_hex}")
        for flag in flags:
            name, want = (flag[4:], False) if flag.startswith("not-") else (flag, True)
            name, want = {"inactive": ("active", False), "unconfirmed": ("confirmed", False)}.get(name, (name, want))
            if bool(getattr(image, name, False)) != want:
                problems.append(f"{name} is {bool(getattr(image, name, False))}")
        if problems:
            raise Failed(f"slot {slot}: {', '.join(problems)} ({slots_text(images)})")
    return slots_text(images)


async def check_empty(addr, slot):
    images = await state(addr)
    if any(i.slot == int(slot) for i in images):
        raise Failed(f"slot {slot} is still listed ({slots_text(images)})")
    return f"slot {slot} not listed ({slots_text(images)})"


async def check_test(addr, hash_hex):
    client = await connected(addr)
    try:
        response = await client.request(ImageStatesWrite(hash=bytes.fromhex(hash_hex), confirm=False))
    finally:
        await client.disconnect()
    expect_success(response, "state write (test)")
    slot1 = next((i for i in response.images if i.slot == 1), None)
    if slot1 is None or not slot1.pending:
        raise Failed(f"slot 1 is not pending after the test write ({slots_text(response.images)})")
    return f"slot 1 {slot1.version} pending"


async def check_reset(addr):
    client = await connected(addr)
    try:
        expect_success(await client.request(ResetWrite()), "reset")
    finally:
        await client.disconnect()
    return "reset accepted"


async def echo_answered(addr):
    client = client_for(addr, 0.5)
    try:
        await client.connect()
        return success(await client.request(EchoWrite(d="up?")))
    except (TimeoutError, asyncio.TimeoutError, OSError, SMPBadSequence):
        # Down: a device that resets or swaps answers nothing. On a serial line, the answer to a
        # request sent as it came up can arrive after its timeout, in place of the next one's.
        return False
    finally:
        await client.disconnect()


async def check_wait_up(addr, seconds):
    # The device answers the reset first and goes down 250 ms later (Zephyr's
    # CONFIG_MCUMGR_GRP_OS_RESET_MS), so first see it go down, then wait for it to answer again:
    # an echo answered before the reboot says nothing about the new image.
    started = time.monotonic()
    down_deadline = started + 5.0
    while await echo_answered(addr):
        if time.monotonic() > down_deadline:
            raise Failed("the device kept answering for 5 s after the reset: it did not reboot")
    went_down = time.monotonic()
    deadline = went_down + float(seconds)
    while time.monotonic() < deadline:
        if await echo_answered(addr):
            return f"down after {went_down - started:.1f} s, answering again after {time.monotonic() - started:.1f} s"
    raise Failed(f"no answer within {seconds} s of going down for the reset")


async def check_confirm(addr):
    client = await connected(addr)
    try:
        response = expect_success(await client.request(ImageStatesWrite(confirm=True)), "state write (confirm)")
    finally:
        await client.disconnect()
    slot0 = next((i for i in response.images if i.slot == 0), None)
    if slot0 is None or not slot0.confirmed:
        raise Failed(f"slot 0 is not confirmed ({slots_text(response.images)})")
    return f"slot 0 {slot0.version} confirmed"


async def refused_upload(addr, first_chunk, length, want):
    client = await connected(addr)
    try:
        response = await client.request(ImageUploadWrite(off=0, data=first_chunk, image=0, len=length,
                                                         sha=hashlib.sha256(first_chunk).digest()))
    finally:
        await client.disconnect()
    if not error_v2(response) or int(response.err.group) != 1 or response.err.rc != want:
        raise Failed(f"the device answered {describe(response)}; expected err {{group 1, rc {int(want)} ({want.name})}}")
    return f"refused with {describe(response)}"


async def check_refuse_magic(addr, path):
    with open(path, "rb") as f:
        chunk = bytearray(f.read(512))
    chunk[0] ^= 0xFF
    return await refused_upload(addr, bytes(chunk), 49152, IMG_MGMT_ERR.INVALID_IMAGE_HEADER_MAGIC)


async def check_refuse_size(addr, path, length):
    with open(path, "rb") as f:
        chunk = f.read(512)
    return await refused_upload(addr, chunk, int(length), IMG_MGMT_ERR.INVALID_IMAGE_TOO_LARGE)


CHECKS = {
    "echo": check_echo, "params": check_params, "upload": check_upload, "upload-noisy": check_upload_noisy,
    "state": check_state,
    "test": check_test, "reset": check_reset, "wait-up": check_wait_up, "confirm": check_confirm, "empty": check_empty,
    "refuse-magic": check_refuse_magic, "refuse-size": check_refuse_size,
}


def main():
    # smpclient logs every timeout it raises; the one line printed here says what matters.
    logging.disable(logging.CRITICAL)
    if len(sys.argv) < 3 or sys.argv[1] not in CHECKS:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        print(asyncio.run(CHECKS[sys.argv[1]](*sys.argv[2:])))
    except Failed as e:
        print(e)
        sys.exit(1)
    except Exception as e:  # a crash of the check is a failed check, said in one line
        print(f"{type(e).__name__}: {e}")
        sys.exit(1)


if __name__ == "__main__":
    main()
