"""What the smpclient scripts (smpclient-crosscheck.py over UDP and serial, bluez-rig-smpclient.py over BLE)
share: a short form of an SMP reply for messages, and the check that a reply is a success."""

from smpclient.generics import error, error_v2, success


class Failed(Exception):
    """The device's answer is not what a Zephyr device gives."""


def describe(response):
    """A short form of a reply for messages (pydantic's repr runs over several lines)."""
    if error_v2(response):
        return f"err {{group {int(response.err.group)}, rc {int(response.err.rc)} ({response.err.rc.name})}}"
    if error(response):
        return f"rc {int(response.rc)} ({response.rc.name})"
    return type(response).__name__


def expect_success(response, what):
    """`response`, or Failed naming `what` and the device's answer."""
    if not success(response):
        raise Failed(f"{what}: the device answered {describe(response)}")
    return response
