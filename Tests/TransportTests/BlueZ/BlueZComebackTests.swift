@testable import BlueZTransport
@testable import DBusBinding
import Testing
@testable import Transport

/// After our link to a `name:` peer ended: what counts as the peer being back, tree by tree, as
/// bluetoothd 5.66 reports a reboot (stale Connected=true, then Connected=false, RSSI invalidated
/// when a scan ends and emitted again when heard).
struct BlueZComebackTests {
    typealias F = BlueZObjectFixture
    static let old = "C2:11:40:55:7A:01"
    static let moved = "C2:11:40:55:7A:98"
    static let oldPath = F.devicePath(address: old)

    static func watch(_ tree: BlueZObjectTree, lost: Set<String> = [oldPath]) -> BlueZComeback {
        BlueZComeback(lastAddress: old, name: "sensor-12",
                      services: [ServiceID(BluetoothUUID(string: F.smpService) ?? BluetoothUUID(short: 0))],
                      adapterPath: "/org/bluez/hci0", lostPaths: lost, tree: tree)
    }

    /// `look` outside `#expect`, which cannot take a mutating call.
    func look(_ comeback: inout BlueZComeback, _ tree: BlueZObjectTree) -> Bool {
        comeback.look(at: tree)
    }

    static func connected(_ value: Bool) -> DBusSignal {
        F.propertiesChanged(oldPath, "org.bluez.Device1", ["Connected": .bool(value), "ServicesResolved": .bool(value)])
    }

    @Test func theOldObjectsStaleConnectionIsNotPresenceButANewAddressWithTheNameIs() {
        var tree = F.tree([F.adapter("hci0"),
                           F.device(address: Self.old, name: "BlueZ 5.66", uuids: [F.smpService], connected: true)])
        var comeback = Self.watch(tree)
        #expect(!look(&comeback, tree))
        #expect(comeback.lastAddressClaimsConnection(in: tree))
        _ = tree.apply(Self.connected(false))
        #expect(!look(&comeback, tree))
        #expect(!comeback.lastAddressClaimsConnection(in: tree))
        // Heard under a new address, with the name but not the service: not it.
        _ = tree.apply(F.interfacesAdded(F.device(address: "C2:00:00:00:00:07", name: "sensor-12", rssi: -40)))
        #expect(!look(&comeback, tree))
        _ = tree.apply(F.interfacesAdded(F.device(address: Self.moved, name: "sensor-12", rssi: -60, uuids: [F.smpService])))
        #expect(look(&comeback, tree))
        #expect(comeback.found?.address == Self.moved)
    }

    @Test func theOldAddressCountsOnceHeardAgainWhateverItsName() {
        // An RSSI left over from another client's scan is not news.
        var tree = F.tree([F.adapter("hci0"), F.device(address: Self.old, name: "BlueZ 5.66", rssi: -70)])
        var comeback = Self.watch(tree)
        #expect(!look(&comeback, tree))
        _ = tree.apply(Self.connected(false))
        #expect(!look(&comeback, tree))
        // Our scan ends (RSSI invalidated), the next one hears it at the same strength: news.
        _ = tree.apply(F.propertiesChanged(Self.oldPath, "org.bluez.Device1", [:], invalidated: ["RSSI"]))
        #expect(!look(&comeback, tree))
        _ = tree.apply(F.propertiesChanged(Self.oldPath, "org.bluez.Device1", ["RSSI": .int16(-70)]))
        #expect(look(&comeback, tree))
        #expect(comeback.found?.address == Self.old)
    }

    @Test func aConnectionOfOursThatHasNotEndedCounts() {
        let tree = F.tree([F.adapter("hci0"), F.device(address: Self.old, name: "sensor-12", connected: true),
                           F.device(address: Self.moved, name: "sensor-12", uuids: [F.smpService], connected: true)])
        var lostOld = Self.watch(tree)
        #expect(look(&lostOld, tree))
        #expect(lostOld.found?.address == Self.moved)
        var lostBoth = Self.watch(tree, lost: [Self.oldPath, F.devicePath(address: Self.moved)])
        #expect(!look(&lostBoth, tree))
        var lostNone = Self.watch(tree, lost: [])
        #expect(look(&lostNone, tree))
        #expect(lostNone.found?.address == Self.old)
    }
}
