import DBusBinding
import Transport

/// One client's `SetDiscoveryFilter`, parsed as bluetoothd 5.66 does (adapter.c
/// `parse_discovery_filter_dict`): exact D-Bus types per key, unknown keys refused, RSSI and
/// Pathloss not both.
struct StandInDiscoveryFilter: Sendable, Equatable {
    var uuids: [BluetoothUUID] = []
    var rssi: Int16?
    var pathloss: UInt16?
    var transport = "auto"
    var duplicateData = false
    var discoverable = false
    var pattern: String?

    /// adapter.c PATHLOSS_MAX.
    static let pathlossMax: UInt16 = 137

    /// nil for an empty dictionary (clears the filter); throws InvalidArguments otherwise.
    static func parse(_ arguments: [DBusValue]) throws -> StandInDiscoveryFilter? {
        guard arguments.count == 1, case .dict(let key, let value, let entries) = arguments[0],
              key == "s", value == "v" else { throw StandInError.invalidArguments }
        guard !entries.isEmpty else { return nil }
        var filter = StandInDiscoveryFilter()
        for entry in entries {
            guard case .string(let name) = entry.key, case .variant(let content) = entry.value else {
                throw StandInError.invalidArguments
            }
            switch (name, content) {
            case ("UUIDs", .array(let element, let values)) where element == "s":
                for value in values {
                    guard case .string(let text) = value, let uuid = BluetoothUUID(string: text) else {
                        throw StandInError.invalidArguments
                    }
                    filter.uuids.append(uuid)
                }
            case ("RSSI", .int16(let rssi)) where (-127 ... 20).contains(rssi):
                filter.rssi = rssi
            case ("Pathloss", .uint16(let pathloss)) where pathloss <= pathlossMax:
                filter.pathloss = pathloss
            case ("Transport", .string(let transport)) where ["auto", "bredr", "le"].contains(transport):
                filter.transport = transport
            case ("DuplicateData", .bool(let duplicate)):
                filter.duplicateData = duplicate
            case ("Discoverable", .bool(let discoverable)):
                filter.discoverable = discoverable
            case ("Pattern", .string(let pattern)):
                filter.pattern = pattern
            default:
                throw StandInError.invalidArguments
            }
        }
        if filter.rssi != nil, filter.pathloss != nil { throw StandInError.invalidArguments }
        return filter
    }

    /// Whether a device heard with `services` at `rssi` is reported while these clients discover
    /// (nil: a client without a filter). The kernel filters by the merged RSSI floor (the lowest
    /// any client asked; none if one client asked none); then adapter.c `is_filter_match` wants one
    /// client whose UUIDs are empty or shared with the device. Its proximity test lets everything
    /// through when no pathloss is set, so the floor is the only RSSI check.
    static func reports(services: [ServiceID], rssi: Int16, filters: [StandInDiscoveryFilter?]) -> Bool {
        let set = filters.compactMap { $0 }
        guard set.count == filters.count, !set.isEmpty else { return true }
        let floors = set.map(\.rssi)
        if !floors.contains(nil), let floor = floors.compactMap({ $0 }).min(), rssi < floor { return false }
        return set.contains { filter in
            filter.uuids.isEmpty || services.contains { filter.uuids.contains($0.uuid) }
        }
    }

    /// adapter.c `device_is_discoverable`: a client's Pattern is a prefix of the address or name.
    static func patternAllows(address: String, name: String?, filters: [StandInDiscoveryFilter?]) -> Bool? {
        let patterns = filters.compactMap { $0?.pattern }
        guard !patterns.isEmpty else { return nil }
        return patterns.contains { $0.isEmpty || address.hasPrefix($0) || (name?.hasPrefix($0) ?? false) }
    }
}
