"""smpclient 7.3.0 over BLE (bleak, BlueZ) updates `dfu sim --serve bluez:…` in the BlueZ rig:
the `smpclient` scenario of scripts/bluez-rig-scenarios.sh (docs/test-bluez.md).

    BLEAK_ADAPTER=hci1 python3 bluez-rig-smpclient.py ADDRESS IMAGE HASH

One process, as a user of smpclient would write it: connect to ADDRESS, echo a text longer than
two notifications (a reply cut short by bluetoothd would not decode), read the MCUmgr parameters,
upload IMAGE with smpclient's own routine, check slot 1 holds it (HASH, imgtool's digest), mark it
for test, reset; connect again once the device is back, check 1.1.0 runs unconfirmed, confirm,
check it is confirmed. Prints one line per step, then a last line with the facts (MTU, write
size, upload rate). Exit 0 when every step passed, 1 at the first that did not.

bleak has no adapter option on Linux and takes the first powered adapter it finds, which in the
rig may be the sim's own: BLEAK_ADAPTER pins it (one patch, before smpclient runs).
"""

import asyncio
import logging
import os
import sys
import time


def pin_adapter():
    adapter = os.environ.get("BLEAK_ADAPTER")
    if not adapter:
        return
    from bleak.backends.bluezdbus import manager

    manager.BlueZManager.get_default_adapter = lambda self: f"/org/bluez/{adapter}"


pin_adapter()

from smpclient import SMPClient  # noqa: E402  (after the adapter is pinned)
from smp_replies import Failed, expect_success  # noqa: E402
from smpclient.generics import success  # noqa: E402
from smpclient.requests.image_management import ImageStatesRead, ImageStatesWrite  # noqa: E402
from smpclient.requests.os_management import EchoWrite, MCUMgrParametersRead, ResetWrite  # noqa: E402
from smpclient.transport.ble import SMPBLETransport  # noqa: E402


CONNECT_S = 180  # per connect, attempts included (connect's docstring says why)


async def ask(client, request, what, timeout_s=None):
    return expect_success(await client.request(request, timeout_s=timeout_s), what)


def slots(images):
    return "; ".join(
        f"slot {i.slot} {i.version} [{','.join(n for n in ('active', 'confirmed', 'pending') if getattr(i, n, False)) or '-'}]"
        for i in images)


def slot(images, number):
    found = next((i for i in images if i.slot == number), None)
    if found is None:
        raise Failed(f"no slot {number} in the state list ({slots(images)})")
    return found


async def connect(address, seconds):
    """Connects within `seconds`, trying again as a user of smpclient would. Two things below
    smpclient make an attempt fail on the rig, measured 2026-12-04 (bleak's log in smpclient.err):
    btvirt reports an advertiser once per scan start and the kernel drops that report when it comes
    before the Discovering event, so a scan may see the sim only at bluetoothd's next restart of
    discovery, ~10 s on; and bluetoothd 5.66 never signals Connected=true when the ATT socket's
    connect callback runs before the kernel's Device Connected event (device.c att_connect_cb sets
    the state, device_add_connection then returns "already connected"; still so upstream), so bleak
    believes the link is down once services resolve ("failed to discover services, device
    disconnected") and disconnects. Three such attempts in a row and two missed scans used up 90 s
    once, hence 180. An attempt may take 30 s: under the rig's software emulation a connection with
    its service discovery takes 10-20 s, and an attempt cut at 10 s dropped a link that was still
    resolving (2026-12-03). Each failed attempt is a line on stderr."""
    started = time.monotonic()
    deadline = started + seconds
    last, attempts = "no attempt", 0
    while time.monotonic() < deadline:
        attempts += 1
        transport = SMPBLETransport()
        client = SMPClient(transport, address, timeout_s=10.0)
        try:
            await client.connect(connect_timeout_s=min(30.0, max(1.0, deadline - time.monotonic())))
            return client, transport
        except Exception as e:  # not found, connect refused, timeouts: try again until the deadline
            last = f"{type(e).__name__}: {e}"
            print(f"connect attempt {attempts} failed at {time.monotonic() - started:.1f} s: {last}",
                  file=sys.stderr, flush=True)
            try:
                await client.disconnect()
            except Exception:
                pass
    raise Failed(f"could not connect to {address} within {seconds} s in {attempts} attempts (last: {last})")


async def disconnect(client):
    try:
        await client.disconnect()
    except Exception:
        pass  # the device dropped the link itself (reset)


def step(name, detail):
    print(f"ok   {name}: {detail}", flush=True)


async def run(address, image_path, image_hash):
    with open(image_path, "rb") as f:
        image = f.read()
    client, transport = await connect(address, CONNECT_S)
    mtu = transport.mtu
    step("connect", f"write size {mtu} (bleak's MTU - 3)")
    try:
        text = "x" * 1200
        reply = await ask(client, EchoWrite(d=text), "echo")
        if reply.r != text:
            raise Failed(f"echo of {len(text)} characters came back as {len(reply.r)}")
        step("echo", f"{len(text)} characters back whole")
        params = await ask(client, MCUMgrParametersRead(), "params")
        step("params", f"buf_size {params.buf_size}, buf_count {params.buf_count}")
        started = time.monotonic()
        replies, last = 0, None
        try:
            async for offset in client.upload(image, first_timeout_s=40.0, subsequent_timeout_s=10.0):
                replies, last = replies + 1, offset
        except Exception as e:
            raise Failed(f"upload stopped after {replies} replies at off {last}: {type(e).__name__}: {e}")
        elapsed = time.monotonic() - started
        if last != len(image):
            raise Failed(f"upload ended at off {last} of {len(image)}")
        rate = len(image) / elapsed / 1000
        step("upload", f"{len(image)} bytes in {replies} requests, {elapsed:.1f} s ({rate:.1f} kB/s)")
        images = (await ask(client, ImageStatesRead(), "state read")).images
        secondary = slot(images, 1)
        if secondary.hash.hex() != image_hash.lower():
            raise Failed(f"slot 1 hash {secondary.hash.hex()}, expected {image_hash}")
        step("state", slots(images))
        images = (await ask(client, ImageStatesWrite(hash=bytes.fromhex(image_hash), confirm=False), "test")).images
        if not slot(images, 1).pending:
            raise Failed(f"slot 1 is not pending after the test write ({slots(images)})")
        step("test", f"slot 1 {slot(images, 1).version} pending")
        await ask(client, ResetWrite(), "reset")
        step("reset", "accepted")
    finally:
        await disconnect(client)

    # The device drops the link, swaps, and advertises again.
    started = time.monotonic()
    await asyncio.sleep(1.0)
    client, _ = await connect(address, CONNECT_S)
    try:
        images = (await ask(client, ImageStatesRead(), "state read")).images
        primary = slot(images, 0)
        if primary.hash.hex() != image_hash.lower() or primary.confirmed or not primary.active:
            raise Failed(f"after the reset slot 0 is not the new image, active and unconfirmed ({slots(images)})")
        step("reconnect", f"after {time.monotonic() - started:.1f} s: {slots(images)}")
        images = (await ask(client, ImageStatesWrite(confirm=True), "confirm")).images
        if not slot(images, 0).confirmed:
            raise Failed(f"slot 0 is not confirmed ({slots(images)})")
        step("confirm", f"slot 0 {slot(images, 0).version} confirmed")
    finally:
        await disconnect(client)
    return f"write size {mtu}, upload {rate:.1f} kB/s, {slot(images, 0).version} confirmed"


def main():
    # bleak's and smpclient's own account goes to stderr (smpclient.err): what a failed connect
    # attempt did is only there; the steps on stdout say what matters
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="%(asctime)s.%(msecs)03d %(name)s %(levelname)s %(message)s", datefmt="%H:%M:%S")
    for name in ("bleak", "smpclient"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        print(f"smpclient over BLE: {asyncio.run(run(*sys.argv[1:]))}")
    except Failed as e:
        print(f"FAIL {e}")
        sys.exit(1)
    except Exception as e:
        print(f"FAIL {type(e).__name__}: {e}")
        sys.exit(1)


if __name__ == "__main__":
    main()
