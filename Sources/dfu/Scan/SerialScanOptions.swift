import ArgumentParsing
import SerialTransport

/// `dfu scan --serial` and the options that only it takes: `--no-probe`, `--probe-timeout`,
/// `--baud`. Given without `--serial` they are a usage error, as the Bluetooth options are with it
/// (`ScanCommand.validate`).
struct SerialScanOptions: ParsableArguments {
    @Flag(help: "List the serial ports (USB CDC ACM, USB-UART bridges, /dev/serial/by-id) instead of Bluetooth "
        + "devices, and what answers on each: SMP in console or raw framing, or a Nordic Secure DFU bootloader.")
    var serial = false

    @Flag(help: "With --serial: list the ports without opening them.")
    var noProbe = false

    @Option(valueName: "SECONDS",
            help: "With --serial: how long each probe waits for an answer (up to 60). (default: 1)")
    var probeTimeout: Double?

    @Option(valueName: "N", help: "With --serial: the line speed to probe at. (default: 115200)")
    var baud: Int?

    init() {}

    static let defaultProbeTimeout = 1.0
    static let maximumProbeTimeout = 60.0

    /// The options given that need `--serial`, as the user typed them.
    var serialOnlyGiven: [String] {
        [noProbe ? "--no-probe" : nil, probeTimeout.map { _ in "--probe-timeout" }, baud.map { _ in "--baud" }]
            .compactMap { $0 }
    }

    /// Called from `ScanCommand.validate()` when `--serial` is given.
    func validate() throws(UsageError) {
        if noProbe, probeTimeout != nil {
            throw UsageError("--probe-timeout has nothing to time with --no-probe, which opens no port")
        }
        if let probeTimeout, !(probeTimeout > 0 && probeTimeout <= Self.maximumProbeTimeout) {
            throw UsageError("--probe-timeout must be more than 0 and at most \(Int(Self.maximumProbeTimeout)) seconds")
        }
        _ = try settings()
    }

    /// The port settings to probe with.
    func settings() throws(UsageError) -> SerialPortSettings {
        do throws(SerialPortError) {
            return try SerialPortSettings(baud: baud ?? SerialPortSettings.standard.baud)
        } catch {
            throw UsageError("invalid --baud: \(error)")
        }
    }

    /// How long each probe waits.
    var probeDuration: Duration {
        .milliseconds(Int(((probeTimeout ?? Self.defaultProbeTimeout) * 1000).rounded()))
    }
}
