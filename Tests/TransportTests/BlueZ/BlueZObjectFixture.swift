@testable import BlueZTransport
@testable import DBusBinding
@testable import Transport

/// Object trees shaped exactly like BlueZ 5.66's (bluez-dbus.md §1): every object also lists
/// Introspectable and Properties with empty dicts; RSSI `n`, MTU `q`, Flags `as`, UUIDs `as`,
/// ManufacturerData `a{qv}` of `ay`; paths `/org/bluez/hciN/dev_AA_BB_…/serviceXXXX/charXXXX`.
enum BlueZObjectFixture {
    typealias Interfaces = [String: [String: DBusValue]]
    typealias Object = (path: String, interfaces: Interfaces)

    static let smpService = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"
    static let smpCharacteristic = "da2e7828-fbce-4e01-ae9e-261174997c48"

    private static func withStandard(_ interfaces: Interfaces) -> Interfaces {
        interfaces.merging(["org.freedesktop.DBus.Introspectable": [:], "org.freedesktop.DBus.Properties": [:]]) { a, _ in a }
    }

    static func adapter(_ name: String, address: String = "00:AA:01:00:00:23", powered: Bool = true) -> Object {
        ("/org/bluez/\(name)", withStandard([
            "org.bluez.Adapter1": [
                "Address": .string(address), "AddressType": .string("public"), "Name": .string("rig"),
                "Alias": .string("rig"), "Class": .uint32(0), "Powered": .bool(powered), "Discoverable": .bool(false),
                "Discovering": .bool(false), "UUIDs": .strings([]), "Roles": .strings(["central", "peripheral"]),
            ],
            "org.bluez.GattManager1": [:], "org.bluez.LEAdvertisingManager1": ["ActiveInstances": .byte(0)],
        ]))
    }

    static func devicePath(adapter: String = "hci0", address: String) -> String {
        "/org/bluez/\(adapter)/dev_" + address.uppercased().split(separator: ":").joined(separator: "_")
    }

    static func device(adapter: String = "hci0", address: String, name: String? = nil, rssi: Int16? = nil,
                       uuids: [String] = [], connected: Bool = false, resolved: Bool = false) -> Object {
        var props: [String: DBusValue] = [
            "Address": .string(address), "AddressType": .string("random"),
            "Alias": .string(name ?? address.split(separator: ":").joined(separator: "-")),
            "Paired": .bool(false), "Bonded": .bool(false), "Trusted": .bool(false), "Blocked": .bool(false),
            "LegacyPairing": .bool(false), "Connected": .bool(connected), "UUIDs": .strings(uuids),
            "Adapter": .objectPath("/org/bluez/\(adapter)"), "ServicesResolved": .bool(resolved),
            "ManufacturerData": .dict(keySignature: "q", valueSignature: "v",
                                      [DBusDictEntry(.uint16(0x0059), .variant(.bytes([1, 2, 3])))]),
        ]
        if let name { props["Name"] = .string(name) }
        if let rssi { props["RSSI"] = .int16(rssi) }
        return (devicePath(adapter: adapter, address: address), withStandard(["org.bluez.Device1": props]))
    }

    static func service(device: String, handle: UInt16, uuid: String) -> Object {
        (device + "/service" + hex(handle), withStandard([
            "org.bluez.GattService1": ["UUID": .string(uuid), "Device": .objectPath(device), "Primary": .bool(true),
                                       "Includes": .array(elementSignature: "o", [])],
        ]))
    }

    static func characteristic(service: String, handle: UInt16, uuid: String, flags: [String],
                               mtu: UInt16? = 517) -> Object {
        var props: [String: DBusValue] = [
            "UUID": .string(uuid), "Service": .objectPath(service), "Flags": .strings(flags),
        ]
        if flags.contains("notify") { props["Notifying"] = .bool(false); props["NotifyAcquired"] = .bool(false) }
        if flags.contains("write-without-response") { props["WriteAcquired"] = .bool(false) }
        if let mtu { props["MTU"] = .uint16(mtu) }
        return (service + "/char" + hex(handle), withStandard(["org.bluez.GattCharacteristic1": props]))
    }

    /// A connected SMP peripheral: SMP service (0x000a) with its characteristic (0x000b), and
    /// Battery 180F (0x000e) with 2A19 (0x000f).
    static func smpPeripheral(adapter: String = "hci0", address: String = "C2:11:40:55:7A:01",
                              name: String = "sensor-12", charHandle: UInt16 = 0x000b, mtu: UInt16 = 517) -> [Object] {
        let device = device(adapter: adapter, address: address, name: name, rssi: -50,
                            uuids: [smpService, "0000180f-0000-1000-8000-00805f9b34fb"], connected: true, resolved: true)
        let smp = service(device: device.path, handle: charHandle - 1, uuid: smpService)
        let battery = service(device: device.path, handle: 0x0e, uuid: "0000180f-0000-1000-8000-00805f9b34fb")
        return [
            device, smp,
            characteristic(service: smp.path, handle: charHandle, uuid: smpCharacteristic,
                           flags: ["write-without-response", "notify"], mtu: mtu),
            battery,
            characteristic(service: battery.path, handle: 0x0f, uuid: "00002a19-0000-1000-8000-00805f9b34fb",
                           flags: ["read", "notify"], mtu: mtu),
        ]
    }

    static func managedObjects(_ objects: [Object]) -> DBusValue {
        .managedObjects(Dictionary(objects.map { ($0.path, $0.interfaces) }) { a, _ in a })
    }

    static func tree(_ objects: [Object]) -> BlueZObjectTree {
        BlueZObjectTree(managedObjects: managedObjects(objects))
    }

    // MARK: - Signals as bluetoothd sends them

    static func interfacesAdded(_ object: Object) -> DBusSignal {
        DBusSignal(sender: ":1.3", path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
                   arguments: [.objectPath(object.path), .interfaces(object.interfaces)])
    }

    static func interfacesRemoved(_ path: String, _ interfaces: [String]) -> DBusSignal {
        DBusSignal(sender: ":1.3", path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesRemoved",
                   arguments: [.objectPath(path), .strings(interfaces)])
    }

    static func propertiesChanged(_ path: String, _ interface: String, _ changed: [String: DBusValue],
                                  invalidated: [String] = []) -> DBusSignal {
        DBusSignal(sender: ":1.3", path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                   arguments: [.string(interface), .properties(changed), .strings(invalidated)])
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
