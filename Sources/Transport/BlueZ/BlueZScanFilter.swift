import DBusBinding
import Transport

/// What `BlueZCentral.scan` looks for. BlueZ merges the discovery filters of all its clients, so it
/// may report devices outside ours: `matches` re-checks every device against this filter.
public struct BlueZScanFilter: Sendable, Equatable {
    /// Devices advertising ANY of these services (empty: every device).
    public var services: [ServiceID]
    /// Ignore devices heard weaker than this (dBm), e.g. -70.
    public var minimumRSSI: Int?

    public init(services: [ServiceID] = [], minimumRSSI: Int? = nil) {
        self.services = services
        self.minimumRSSI = minimumRSSI
    }

    /// Whether `device` passes: one of `services` among its UUIDs (when any are asked for) and an
    /// RSSI at or above the floor (a device with no RSSI fails a floor).
    public func matches(_ device: BlueZDiscoveredDevice) -> Bool {
        if !services.isEmpty, !device.services.contains(where: services.contains) { return false }
        if let minimumRSSI {
            guard let rssi = device.rssi, rssi >= minimumRSSI else { return false }
        }
        return true
    }

    /// The `SetDiscoveryFilter` argument: LE only, duplicates on (so RSSI keeps updating), the
    /// services as UUID strings, the RSSI floor as `n` (int16: BlueZ rejects any other type).
    var discoveryFilter: DBusValue {
        var filter: [String: DBusValue] = [
            "Transport": .string("le"),
            "DuplicateData": .bool(true),
        ]
        if !services.isEmpty { filter["UUIDs"] = .strings(services.map(\.uuid.description)) }
        if let minimumRSSI {
            // BlueZ accepts -127…20 (adapter.c parse_rssi); clamp rather than trap or be refused.
            filter["RSSI"] = .int16(Int16(max(-127, min(20, minimumRSSI))))
        }
        return .properties(filter)
    }
}
