import DFUCore

/// How `dfu sim --serve serial:PATH,…` serves the device on its line (beside the device's own
/// options, which say what the device is).
public struct SerialServeOptions: Sendable, Hashable {
    /// The modelled baud rate: bytes take 10 bits of line time each way (a pty has no rate).
    public var baud: Int = 115_200
    /// SMP's framing on the line: Zephyr's console framing, or raw packets.
    public var framing: SMPStreamFraming = .console
    /// Every this many replies, the device prints a log line on the same line (Zephyr's logging
    /// sharing the UART), between frames; nil: no log output.
    public var noiseEvery: Int?
    /// Whether the port vanishes while the device resets and comes back when it has booted (USB
    /// CDC ACM); false: a UART, which stays.
    public var vanishesOnReset = false
    /// Every this many replies, one character of the reply's frame is garbled on the wire, so the
    /// client's decoder must drop it (and the request be sent again); nil: never.
    public var garbleEvery: Int?
    /// The device powers up in MCUboot's serial recovery, as if its recovery button were held
    /// (`BOOT_SERIAL_ENTRANCE_GPIO`); false: the application runs.
    public var startsInRecovery = false
    /// The application has no SMP transport on this port: it answers nothing (only MCUboot's
    /// serial recovery does), and writes only log lines (`noiseEvery`).
    public var applicationSilent = false

    public init() {}

}
