import ArgumentParsing
import BlueZTransport
import DFUCore
import ExitCodes
import Transport

/// `dfu scan`: the Bluetooth LE devices around that dfu can update (SMP or Nordic Secure DFU), or
/// with `--all` every device heard; with `--serial`, the serial ports and what answers on each
/// (`ScanCommand+Serial.swift`).
///
/// Addresses are printed in full, unlike everywhere else in dfu: a scan is how a user learns the
/// address to pass to `--device`, and the user asked for exactly that list (as `bluetoothctl
/// devices` and `nrfutil device list` print full addresses). Shortening them would make the command
/// useless, and a `--full-addresses` flag that every scan needs would be noise, so scan has none.
/// Logs (`--verbose`) still shorten the adapter's own address.
struct ScanCommand: DFUCommand {
    static let name = "scan"
    static let abstract = "List Bluetooth LE devices or serial ports with SMP or Nordic DFU."
    static let discussion = """
        Listens through BlueZ for --timeout seconds and lists each device advertising the SMP \
        service (8D53DC1D-1DB7-4CD3-868B-8A527460AA84), updated with MCUboot images, or Nordic \
        Secure DFU (0xFE59), updated with Nordic DFU packages; --all lists every device heard. Each row is the \
        device's address, name, signal strength (RSSI, dBm) and protocol. Addresses are shown in \
        full: pass one to 'dfu info --device' or 'dfu flash --device', or use name:NAME.

        On a terminal each device is printed when it is first heard; otherwise the table comes at the \
        end, strongest first. Other programs may scan at the same time (bluetoothctl, GNOME): BlueZ \
        merges their scans, and dfu keeps only the devices that pass its own filter.

        --serial lists the serial ports instead (/dev/serial/by-id, ttyACM*, ttyUSB*): each row is \
        the --device text for the port (its by-id name when it has one), the tty, the USB vendor and \
        product ids, manufacturer, product, serial number and interface, and what answers. dfu opens \
        every port (all at once) and asks until one question is answered, each waiting up to \
        --probe-timeout: an SMP echo in console framing, then as a raw packet, then a Nordic Secure \
        DFU ping. A port another program holds shows as busy, one you may not open says which group \
        to join; neither stops the scan. --no-probe lists the ports without opening them. The \
        Bluetooth options (--timeout, --rssi-min, --all, --adapter) do not combine with --serial.

        Examples:
          dfu scan
          dfu scan --timeout 5 --rssi-min -70
          dfu scan --all --adapter hci1 --json
          dfu scan --serial
          dfu scan --serial --baud 1000000 --json

        Exit status:
          0    the scan ran, whether or not devices were found
          1    internal error (a bug in dfu)
          2    usage error
          5    BlueZ unusable (bluetoothd not running, access denied, adapter off)
          130  interrupted by SIGINT or SIGTERM
        """

    /// Optional, so that `--serial` can refuse it when given.
    @Option(name: "timeout", valueName: "SECONDS", help: "How long to listen. (default: 10)")
    var listenFor: Double?

    @Option(valueName: "DBM", help: "Leave out devices heard weaker than this, e.g. -70 (from -127 to 20).")
    var rssiMin: Int?

    @Flag(help: "List every device heard, not only those offering SMP or Nordic DFU.")
    var all = false

    var bluetooth = AdapterOption()

    var serialPorts = SerialScanOptions()

    var common = CommonOptions(json: .deviceLines)

    /// How long a Bluetooth scan listens.
    var timeout: Double { listenFor ?? Self.defaultTimeout }

    static let defaultTimeout = 10.0
    /// The longest scan that is still a timeout and not a typo (an hour, as `flash`'s waits).
    static let maximumTimeout = 3600.0
    /// What BlueZ accepts as an RSSI floor (`SetDiscoveryFilter`, int16 from -127 to 20).
    static let rssiRange = -127...20

    func validate() throws(UsageError) {
        if serialPorts.serial {
            if let bluetoothOnly = bluetoothOnlyGiven.first {
                throw UsageError("\(bluetoothOnly) applies to the Bluetooth scan, not to --serial")
            }
            try serialPorts.validate()
            return
        }
        if let serialOnly = serialPorts.serialOnlyGiven.first {
            throw UsageError("\(serialOnly) applies to the serial port scan: add --serial")
        }
        guard timeout > 0, timeout <= Self.maximumTimeout else {
            throw UsageError("--timeout must be more than 0 and at most \(Int(Self.maximumTimeout)) seconds")
        }
        if let rssiMin, !Self.rssiRange.contains(rssiMin) {
            throw UsageError("--rssi-min must be from \(Self.rssiRange.lowerBound) to \(Self.rssiRange.upperBound) dBm "
                + "(signal strengths are negative: -70 keeps devices at -70 dBm or stronger)")
        }
        try bluetooth.validate()
    }

    /// The Bluetooth options given, as the user typed them.
    var bluetoothOnlyGiven: [String] {
        [listenFor.map { _ in "--timeout" }, rssiMin.map { _ in "--rssi-min" }, all ? "--all" : nil,
         bluetooth.adapter.map { _ in "--adapter" }].compactMap { $0 }
    }

    var filter: BlueZScanFilter {
        BlueZScanFilter(services: all ? [] : ScanProtocol.advertisedServices, minimumRSSI: rssiMin)
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        if serialPorts.serial { return try await runSerial(console) }
        let style: ScanListing.Style = common.json ? .jsonLines
            : Console.isTerminal(.standardOutput) ? .live : .sorted
        // With --json nothing goes to stderr, logs included.
        let console = console.verbose(common.verbose && !common.json)
        let listing = ScanListing(style: style, console: console)
        let central: BlueZCentral
        do throws(BlueZError) {
            central = try await BlueZCentral.open(adapter: bluetooth.adapter)
        } catch {
            return try failed(error, adapter: nil, listing: listing)
        }
        defer { central.close() }
        let seconds = FixedPoint.compact(timeout, maximumFractionDigits: 1) ?? "?"
        console.log("scanning on \(central.adapterName) (…\(central.adapterAddress.suffix(6))) for \(seconds) s: "
            + (all ? "every device" : "SMP and Nordic DFU services")
            + (rssiMin.map { ", \($0) dBm or stronger" } ?? ""))
        if style == .live {
            console.out("scanning on \(central.adapterName) for \(seconds) s…")
        }
        let devices: [BlueZDiscoveredDevice]
        do throws(BlueZError) {
            devices = try await central.scan(filter, timeout: Self.duration(timeout), found: { listing.found($0) })
        } catch {
            return try failed(error, adapter: central.adapterName, listing: listing)
        }
        listing.finish(devices, adapter: central.adapterName,
                       summary: .init(adapter: central.adapterName, seconds: timeout, all: all, minimumRSSI: rssiMin))
        return .success
    }

    /// BlueZ could not be used: exit 5 with BlueZ's one-line fix, as the result line with --json.
    private func failed(_ error: BlueZError, adapter: String?, listing: ScanListing) throws(DFUError) -> ExitStatus {
        let failure = DFUError.deviceUnreachable(error.description)
        guard common.json else { throw failure }
        listing.failed(failure.description, adapter: adapter)
        return failure.exitStatus
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int((min(max(seconds, 0), maximumTimeout) * 1000).rounded()))
    }
}
