import Transport

/// A device at the far end of a serial line (a UART, or USB CDC ACM), as a sans-I/O value: bytes
/// in with the time they finished arriving, bytes out. The glue that serves it on a pseudo-terminal
/// paces both directions at the modelled baud rate (10 bits per byte on the wire), so a device that
/// can only buffer so much sees bytes arrive as fast as the line carries them, and no faster.
///
/// Every reference model of a serial device (written from the firmware's sources alone, without
/// reading dfu's client) conforms, so one glue serves them all.
public protocol SerialLineDevice: Sendable {
    /// `bytes` finished arriving at `now`, in order. Returns what the device does in response.
    mutating func receive(_ bytes: [UInt8], now: MonotonicInstant) -> [SerialLineOutput]

    /// Time passed to `now` (a deadline of the device's was reached, or the glue just asks).
    mutating func advance(to now: MonotonicInstant) -> [SerialLineOutput]

    /// When the device next needs `advance(to:)` (a flash write ends, a reset completes, an input
    /// timer expires); nil when it waits only for bytes.
    var nextDeadline: MonotonicInstant? { get }
}

/// What a serial device does, in the order it does it.
public enum SerialLineOutput: Sendable, Hashable {
    /// Bytes the device writes to its TX line, in order.
    case transmit([UInt8])
    /// The device resets: a USB CDC ACM port vanishes from the host until `attach`; a UART stays
    /// but carries nothing meanwhile. Bytes received while detached are lost.
    case detach
    /// The device's serial port is back (the reset finished, a USB port enumerated again).
    case attach
    /// A line for the model's own log (what it decided and why); never sent on the wire.
    case note(String)
}
