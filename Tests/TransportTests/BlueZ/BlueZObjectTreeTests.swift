@testable import BlueZTransport
@testable import DBusBinding
import Testing
@testable import Transport

/// The object tree against BlueZ 5.66-shaped data: what the central reads from bluetoothd.
struct BlueZObjectTreeTests {
    typealias F = BlueZObjectFixture
    static let smp = ServiceID(BluetoothUUID(string: F.smpService) ?? BluetoothUUID(short: 0))
    static let smpChar = CharacteristicID(BluetoothUUID(string: F.smpCharacteristic) ?? BluetoothUUID(short: 0))

    @Test func adaptersAreListedInNameOrderWithNumbersComparedAsNumbers() {
        let tree = F.tree([F.adapter("hci10", powered: true), F.adapter("hci2", powered: false), F.adapter("hci0")])
        #expect(tree.adapters.map(\.name) == ["hci0", "hci2", "hci10"])
        #expect(tree.adapters.map(\.powered) == [true, false, true])
        #expect(tree.adapters.first?.path == "/org/bluez/hci0")
        #expect(tree.adapters.first?.address == "00:AA:01:00:00:23")
    }

    @Test func devicesOfAnAdapterCarryTheirAdvertisedFacts() {
        let tree = F.tree([
            F.adapter("hci0"), F.adapter("hci1"),
            F.device(address: "c2:11:40:55:7a:01", name: "sensor-12", rssi: -61, uuids: [F.smpService]),
            F.device(address: "AA:00:00:00:00:02"),
            F.device(adapter: "hci1", address: "BB:00:00:00:00:03", name: "other"),
        ])
        let devices = tree.devices(of: "/org/bluez/hci0")
        #expect(devices.map(\.address) == ["AA:00:00:00:00:02", "C2:11:40:55:7A:01"])
        let sensor = tree.device(address: "c2:11:40:55:7a:01", adapter: "/org/bluez/hci0")
        #expect(sensor?.name == "sensor-12")
        #expect(sensor?.rssi == -61)
        #expect(sensor?.addressType == "random")
        #expect(sensor?.services == [Self.smp])
        #expect(sensor?.connected == false)
        // Alias defaults to the address with dashes: not a name.
        #expect(devices.first?.name == nil)
        #expect(tree.devices(of: "/org/bluez/hci1").map(\.name) == ["other"])
    }

    /// HCI's 127 means "no RSSI measured": the device was heard, but a scan must not report it as
    /// the strongest nor let it pass an RSSI floor.
    @Test func rssiNotAvailableIsHeardButReportedAsUnknown() {
        let tree = F.tree([F.adapter("hci0"), F.device(address: "AA:00:00:00:00:07", name: "virtual", rssi: 127)])
        let device = tree.device(address: "AA:00:00:00:00:07", adapter: "/org/bluez/hci0")
        #expect(device?.rssi == 127)
        #expect(device?.discovered.rssi == nil)
        if let discovered = device?.discovered {
            #expect(!BlueZScanFilter(minimumRSSI: -70).matches(discovered))
            #expect(BlueZScanFilter().matches(discovered))
        }
    }

    @Test func gattLayoutIsFoundByUUIDWithFlagsPathsAndMTU() {
        let tree = F.tree([F.adapter("hci0")] + F.smpPeripheral(mtu: 247))
        let device = F.devicePath(address: "C2:11:40:55:7A:01")
        let services = tree.services(of: device)
        #expect(services.map(\.id) == [Self.smp, ServiceID(short: 0x180F)])
        let smp = services.first?.characteristics.first
        #expect(smp?.id == Self.smpChar)
        #expect(smp?.path == device + "/service000a/char000b")
        #expect(smp?.properties == [.writeWithoutResponse, .notify])
        #expect(smp?.mtu == 247)
        #expect(services.last?.gattService == GATTService(ServiceID(short: 0x180F), characteristics: [
            GATTCharacteristic(CharacteristicID(short: 0x2A19), properties: [.read, .notify]),
        ]))
    }

    @Test func wronglyTypedPropertiesReadAsAbsentAndNeverTrap() {
        let path = F.devicePath(address: "C2:11:40:55:7A:01")
        let tree = BlueZObjectTree(objects: [
            path: ["org.bluez.Device1": [
                "RSSI": .int32(-40), "Name": .bytes([65]), "Connected": .string("yes"),
                "UUIDs": .array(elementSignature: "v", [.variant(.string(F.smpService))]),
                "Adapter": .string("/org/bluez/hci0"),
            ]],
            path + "/service000a": ["org.bluez.GattService1": ["UUID": .string("not-a-uuid")]],
            path + "/service000c": ["org.bluez.GattService1": ["UUID": .string(F.smpService)]],
            path + "/service000c/char000d": ["org.bluez.GattCharacteristic1": [
                "UUID": .string(F.smpCharacteristic), "Flags": .properties([:]), "MTU": .uint32(517),
            ]],
        ])
        let device = tree.device(at: path)
        // Address falls back to the path; Adapter of the wrong type falls back to the parent path.
        #expect(device?.address == "C2:11:40:55:7A:01")
        #expect(device?.adapterPath == "/org/bluez/hci0")
        #expect(device?.rssi == nil)
        #expect(device?.name == nil)
        #expect(device?.connected == false)
        #expect(device?.services == [])
        let services = tree.services(of: path)
        #expect(services.map(\.id) == [Self.smp])
        #expect(services.first?.characteristics.first?.flags == [])
        #expect(services.first?.characteristics.first?.mtu == nil)
    }

    @Test func aReplyOfTheWrongShapeGivesAnEmptyTreeAndBadEntriesAreSkipped() {
        #expect(BlueZObjectTree(managedObjects: .string("nope")).objects.isEmpty)
        let mixed = DBusValue.dict(keySignature: "o", valueSignature: "a{sa{sv}}", [
            DBusDictEntry(.string("/not/a/path/type"), .interfaces(["org.bluez.Adapter1": [:]])),
            DBusDictEntry(.objectPath("/org/bluez/hci0"), .int32(3)),
            DBusDictEntry(.objectPath("/org/bluez/hci1"), .dict(keySignature: "s", valueSignature: "a{sv}", [
                DBusDictEntry(.string("org.bluez.Adapter1"), .dict(keySignature: "s", valueSignature: "v", [
                    DBusDictEntry(.string("Powered"), .bool(true)),  // not wrapped in a variant: skipped
                    DBusDictEntry(.string("Address"), .variant(.string("00:11:22:33:44:55"))),
                ])),
            ])),
        ])
        let tree = BlueZObjectTree(managedObjects: mixed)
        #expect(tree.adapters.map(\.name) == ["hci1"])
        #expect(tree.adapters.first?.powered == false)
        #expect(tree.adapters.first?.address == "00:11:22:33:44:55")
    }

    @Test func signalsKeepTheTreeCurrent() {
        var tree = F.tree([F.adapter("hci0")])
        let device = F.device(address: "C2:11:40:55:7A:01", name: "sensor-12", rssi: -70, uuids: [F.smpService])
        #expect(tree.apply(F.interfacesAdded(device)) == .added(path: device.path, interfaces: [
            "org.bluez.Device1", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties",
        ]))
        #expect(tree.device(at: device.path)?.rssi == -70)

        _ = tree.apply(F.propertiesChanged(device.path, "org.bluez.Device1", ["RSSI": .int16(-48), "Connected": .bool(true)]))
        #expect(tree.device(at: device.path)?.rssi == -48)
        #expect(tree.device(at: device.path)?.connected == true)

        // Discovery ended: BlueZ invalidates RSSI.
        _ = tree.apply(F.propertiesChanged(device.path, "org.bluez.Device1", [:], invalidated: ["RSSI"]))
        #expect(tree.device(at: device.path)?.rssi == nil)

        _ = tree.apply(F.interfacesRemoved(device.path, ["org.bluez.Device1"]))
        #expect(tree.device(at: device.path) == nil)
        _ = tree.apply(F.interfacesRemoved(device.path, ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties"]))
        #expect(tree.objects[device.path] == nil)
    }

    @Test func propertiesOfUnknownObjectsAndMalformedSignalsChangeNothing() {
        var tree = F.tree([F.adapter("hci0")])
        let before = tree
        let unknown = F.devicePath(address: "C2:11:40:55:7A:01")
        #expect(tree.apply(F.propertiesChanged(unknown, "org.bluez.Device1", ["Connected": .bool(true)])) == nil)
        #expect(tree.apply(F.propertiesChanged("/org/bluez/hci0", "org.bluez.Device1", ["Connected": .bool(true)])) == nil)
        let malformed = [
            DBusSignal(sender: ":1.3", path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                       member: "InterfacesAdded", arguments: [.string("/x")]),
            DBusSignal(sender: ":1.3", path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                       member: "InterfacesRemoved", arguments: [.objectPath("/org/bluez/hci0"), .int32(1)]),
            DBusSignal(sender: ":1.3", path: "/org/bluez/hci0", interface: "org.freedesktop.DBus.Properties",
                       member: "PropertiesChanged", arguments: [.int32(1), .properties(["Powered": .bool(false)])]),
            DBusSignal(sender: ":1.3", path: "/org/bluez/hci0", interface: "org.bluez.Adapter1", member: "Whatever", arguments: []),
        ]
        for signal in malformed { #expect(tree.apply(signal) == nil) }
        #expect(tree == before)
    }

    @Test func characteristicsAreFoundAgainByUUIDAfterAReconnectMovedTheirPaths() {
        var tree = F.tree([F.adapter("hci0")] + F.smpPeripheral(charHandle: 0x000b))
        let device = F.devicePath(address: "C2:11:40:55:7A:01")
        for object in F.smpPeripheral(charHandle: 0x000b).dropFirst() {
            _ = tree.apply(F.interfacesRemoved(object.path, Array(object.interfaces.keys)))
        }
        for object in F.smpPeripheral(charHandle: 0x0011).dropFirst() { _ = tree.apply(F.interfacesAdded(object)) }
        let smp = tree.services(of: device).first { $0.id == Self.smp }?.characteristics.first
        #expect(smp?.path == device + "/service0010/char0011")
        #expect(smp?.id == Self.smpChar)
    }
}
