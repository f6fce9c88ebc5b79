import DBusBinding
import Transport

/// Typed views of the tree: adapters, devices, GATT services and characteristics. A property of the
/// wrong type reads as absent (BlueZ 5.66 types: RSSI `n`, MTU `q`, Flags `as`, UUIDs `as`).
struct BlueZAdapterInfo: Sendable, Equatable {
    var path: String
    /// "hci0": the last path component.
    var name: String
    var address: String
    var powered: Bool
}

struct BlueZDeviceInfo: Sendable, Equatable {
    var path: String
    var adapterPath: String
    var address: String
    var addressType: String?
    var name: String?
    var rssi: Int?
    var services: [ServiceID]
    var connected: Bool
    var servicesResolved: Bool
    /// Paired: bluetoothd holds keys for it (from this or an earlier pairing); Bonded: they are
    /// stored. A paired LE device is encrypted at connect, with no agent (bluez-dbus.md §9).
    var paired = false
    var bonded = false

    /// What a scan reports. RSSI 127 is HCI's "not available" (Core Vol 4 Part E 7.7.65.2; the
    /// rig's virtual controllers send it): reported as unknown, so it neither passes an RSSI floor
    /// nor sorts as the strongest. `rssi` itself keeps it, as it still proves the device was heard.
    var discovered: BlueZDiscoveredDevice {
        BlueZDiscoveredDevice(address: address, addressType: addressType, name: name,
                              rssi: rssi == Self.rssiNotAvailable ? nil : rssi, services: services, connected: connected)
    }

    static let rssiNotAvailable = 127
}

struct BlueZCharacteristicInfo: Sendable, Equatable {
    var path: String
    var id: CharacteristicID
    /// BlueZ's flag strings, e.g. "write-without-response", "notify".
    var flags: [String]
    /// The ATT MTU while connected (BlueZ ≥ 5.62), else nil.
    var mtu: Int?

    var properties: CharacteristicProperties {
        var properties: CharacteristicProperties = []
        if flags.contains("read") { properties.insert(.read) }
        if flags.contains("write-without-response") { properties.insert(.writeWithoutResponse) }
        if flags.contains("write") { properties.insert(.write) }
        if flags.contains("notify") { properties.insert(.notify) }
        if flags.contains("indicate") { properties.insert(.indicate) }
        return properties
    }
}

struct BlueZServiceInfo: Sendable, Equatable {
    var path: String
    var id: ServiceID
    var characteristics: [BlueZCharacteristicInfo]

    var gattService: GATTService {
        GATTService(id, characteristics: characteristics.map { GATTCharacteristic($0.id, properties: $0.properties) })
    }
}

extension BlueZObjectTree {
    /// Every adapter, in name order with numbers compared as numbers (hci2 before hci10).
    var adapters: [BlueZAdapterInfo] {
        paths(with: BlueZNames.adapter).map { path in
            let props = objects[path]?[BlueZNames.adapter] ?? [:]
            return BlueZAdapterInfo(path: path, name: Self.lastComponent(path),
                                    address: props.string("Address") ?? "", powered: props.bool("Powered") ?? false)
        }.sorted { Self.nameOrder($0.name, $1.name) }
    }

    /// The device at `path`, nil when it has no Device1.
    func device(at path: String) -> BlueZDeviceInfo? {
        guard let props = objects[path]?[BlueZNames.device] else { return nil }
        let adapterPath = props.objectPath("Adapter") ?? Self.parent(path)
        guard let address = props.string("Address")?.uppercased() ?? Self.addressFromPath(path) else { return nil }
        let name = props.string("Name") ?? props.string("Alias").flatMap { alias in
            Self.isAddressForm(alias, of: address) ? nil : alias
        }
        return BlueZDeviceInfo(
            path: path, adapterPath: adapterPath, address: address, addressType: props.string("AddressType"),
            name: name, rssi: props.int16("RSSI").map(Int.init),
            services: (props.strings("UUIDs") ?? []).compactMap(ServiceID.init),
            // ServicesResolved=true means connected even while Connected says false: bluetoothd 5.66
            // may never signal Connected=true for a link it made (`BlueZConnector+Establish`), and
            // on a disconnection it sends ServicesResolved=false first (device_remove_connection).
            connected: (props.bool("Connected") ?? false) || (props.bool("ServicesResolved") ?? false),
            servicesResolved: props.bool("ServicesResolved") ?? false,
            paired: props.bool("Paired") ?? false, bonded: props.bool("Bonded") ?? false)
    }

    /// The devices of one adapter, by address.
    func devices(of adapterPath: String) -> [BlueZDeviceInfo] {
        paths(with: BlueZNames.device).compactMap(device(at:)).filter { $0.adapterPath == adapterPath }
            .sorted { $0.address < $1.address }
    }

    /// The device with `address` (any case) on the adapter.
    func device(address: String, adapter adapterPath: String) -> BlueZDeviceInfo? {
        let wanted = address.uppercased()
        return devices(of: adapterPath).first { $0.address == wanted }
    }

    /// The GATT services of a device with their characteristics, in handle order.
    func services(of devicePath: String) -> [BlueZServiceInfo] {
        let characteristics = paths(with: BlueZNames.gattCharacteristic).compactMap { path -> (String, BlueZCharacteristicInfo)? in
            guard let props = objects[path]?[BlueZNames.gattCharacteristic],
                  let uuid = props.string("UUID").flatMap(CharacteristicID.init) else { return nil }
            let service = props.objectPath("Service") ?? Self.parent(path)
            return (service, BlueZCharacteristicInfo(path: path, id: uuid, flags: props.strings("Flags") ?? [],
                                                     mtu: props.uint16("MTU").map(Int.init)))
        }
        return paths(with: BlueZNames.gattService).compactMap { path in
            guard let props = objects[path]?[BlueZNames.gattService],
                  (props.objectPath("Device") ?? Self.parent(path)) == devicePath,
                  let uuid = props.string("UUID").flatMap(ServiceID.init) else { return nil }
            return BlueZServiceInfo(path: path, id: uuid,
                                    characteristics: characteristics.filter { $0.0 == path }.map(\.1))
        }
    }

    // MARK: - Paths and names

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// "AA:BB:…" from ".../dev_AA_BB_CC_DD_EE_FF", for a Device1 that lacks its Address property.
    static func addressFromPath(_ path: String) -> String? {
        let last = lastComponent(path)
        guard last.hasPrefix("dev_") else { return nil }
        let parts = last.dropFirst(4).split(separator: "_")
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else { return nil }
        return parts.joined(separator: ":").uppercased()
    }

    /// BlueZ's default Alias is the address with dashes: not a name worth showing.
    static func isAddressForm(_ alias: String, of address: String) -> Bool {
        String(alias.map { $0 == "-" ? ":" : $0 }).uppercased() == address
    }

    /// "hci2" < "hci10": a trailing number compares numerically, the rest as text.
    static func nameOrder(_ lhs: String, _ rhs: String) -> Bool {
        func split(_ name: String) -> (String, Int?) {
            let digits = name.reversed().prefix { $0.isASCII && $0.isNumber }
            return (String(name.dropLast(digits.count)), Int(String(digits.reversed())))
        }
        let (left, right) = (split(lhs), split(rhs))
        if left.0 != right.0 { return left.0 < right.0 }
        switch (left.1, right.1) {
        case (let l?, let r?) where l != r: return l < r
        default: return lhs < rhs
        }
    }
}

/// Typed property reads that treat a wrong type as absent.
extension Dictionary where Key == String, Value == DBusValue {
    func string(_ name: String) -> String? {
        if case .string(let value)? = self[name] { return value }
        return nil
    }

    func objectPath(_ name: String) -> String? {
        if case .objectPath(let value)? = self[name] { return value }
        return nil
    }

    func bool(_ name: String) -> Bool? {
        if case .bool(let value)? = self[name] { return value }
        return nil
    }

    func int16(_ name: String) -> Int16? {
        if case .int16(let value)? = self[name] { return value }
        return nil
    }

    func uint16(_ name: String) -> UInt16? {
        if case .uint16(let value)? = self[name] { return value }
        return nil
    }

    /// `as`; an array of another element type, or one holding a non-string, reads as absent.
    func strings(_ name: String) -> [String]? {
        guard case .array(_, let values)? = self[name] else { return nil }
        var result: [String] = []
        for value in values {
            guard case .string(let text) = value else { return nil }
            result.append(text)
        }
        return result
    }
}
