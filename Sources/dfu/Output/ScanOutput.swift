import BlueZTransport
import DFUCore
import ExitCodes
import Transport

/// How `dfu scan` shows devices: table rows for people, one JSON object per device for scripts
/// (fields in docs/json-events.md). Addresses are shown in full (see `ScanCommand`); names come from
/// the air, so they pass through `TerminalText` on the terminal and JSON escaping in JSON.
///
///     ADDRESS            NAME                  RSSI  PROTOCOL
///     C2:11:40:55:7A:01  sensor-12              -54  SMP
///     E8:1F:22:90:0B:7C  DfuTarg                -71  Nordic DFU
enum ScanOutput {
    /// The NAME column's width when rows are printed before every name is known (on a terminal).
    /// Longer names push the rest of their row right rather than being cut: a name is what
    /// `--device name:NAME` takes, so it must be shown whole.
    static let liveNameWidth = 20

    static func header(nameWidth: Int) -> String {
        columns("ADDRESS", "NAME", "RSSI", "PROTOCOL", nameWidth: nameWidth)
    }

    static func row(_ device: BlueZDiscoveredDevice, nameWidth: Int) -> String {
        columns(device.address, name(device), rssi(device).map(String.init) ?? "?",
                ScanProtocol(services: device.services).column, nameWidth: nameWidth)
    }

    /// The NAME column's width that fits every name (and the header).
    static func nameWidth(for devices: [BlueZDiscoveredDevice]) -> Int {
        devices.map { name($0).count }.reduce(4, max)
    }

    /// One `device` line.
    static func json(_ device: BlueZDiscoveredDevice) -> JSONValue {
        let found = ScanProtocol(services: device.services)
        return JSONEvent.object("device", [
            JSONField("address", .string(device.address)),
            JSONField("address_type", device.addressType.map { .string($0) } ?? .null),
            JSONField("name", device.name.map { .string($0) } ?? .null),
            JSONField("rssi", rssi(device).map { .int($0) } ?? .null),
            JSONField("protocol", found.jsonName.map { .string($0) } ?? .null),
            JSONField("supported", .bool(found.isSupported)),
            JSONField("connected", .bool(device.connected)),
            JSONField("services", .array(device.services.map { .string($0.description) })),
        ])
    }

    /// The last line: the adapter scanned with (null when none could be opened), how many devices
    /// were listed, and BlueZ's error with its fix (exit 5), else null.
    static func jsonResult(adapter: String?, count: Int, error: String?) -> JSONValue {
        let status: ExitStatus = error == nil ? .success : .deviceUnreachable
        return JSONEvent.object("result", [
            JSONField("command", .string(ScanCommand.name)),
            JSONField("ok", .bool(error == nil)),
            JSONField("exit_code", .int(Int(status.rawValue))),
            JSONField("adapter", adapter.map { .string($0) } ?? .null),
            JSONField("devices", .int(count)),
            JSONField("error", error.map { .string($0) } ?? .null),
        ])
    }

    /// The line after the list: how many of each protocol, or that none was found and what to check.
    struct Summary: Sendable {
        var adapter: String
        var seconds: Double
        /// `--all`.
        var all: Bool
        /// `--rssi-min`.
        var minimumRSSI: Int?

        func line(_ devices: [BlueZDiscoveredDevice]) -> String {
            let place = "on \(adapter) in \(FixedPoint.compact(seconds, maximumFractionDigits: 1) ?? "?") s"
            guard !devices.isEmpty else {
                var line = "no devices found \(place)"
                if !all { line += " offering " + ScanProtocol.all.filter(\.isSupported).map(\.column).joined(separator: " or ") }
                if let minimumRSSI { line += " at \(minimumRSSI) dBm or stronger" }
                line += "; check that the device is powered, advertising and in range"
                return line + (all ? "" : " (--all lists every device)")
            }
            let protocols = devices.map { ScanProtocol(services: $0.services) }
            var counts: [String] = []
            for kind in ScanProtocol.all {
                let count = protocols.filter { $0 == kind }.count
                if count > 0 { counts.append("\(count) " + (kind == .other ? "other" : kind.column)) }
            }
            let noun = devices.count == 1 ? "device" : "devices"
            return "\(devices.count) \(noun) found \(place): " + counts.joined(separator: ", ")
        }
    }

    /// The RSSI when it is a measurement: HCI reports 127 for "not available" (Core Specification,
    /// LE Advertising Report), which BlueZ passes on as it is (seen with the rig's virtual
    /// controllers); real values lie from -127 to 20 dBm.
    static func rssi(_ device: BlueZDiscoveredDevice) -> Int? {
        device.rssi.flatMap { ScanCommand.rssiRange.contains($0) ? $0 : nil }
    }

    private static func name(_ device: BlueZDiscoveredDevice) -> String {
        device.name.map(TerminalText.sanitized) ?? "(no name)"
    }

    private static func columns(_ address: String, _ name: String, _ rssi: String, _ kind: String,
                                nameWidth: Int) -> String {
        padded(address, to: 17) + "  " + padded(name, to: nameWidth) + "  "
            + String(repeating: " ", count: max(0, 4 - rssi.count)) + rssi + "  " + kind
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
