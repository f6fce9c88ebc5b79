@testable import BlueZTransport
import Testing
@testable import Transport

/// The central's decisions that need no bus: which adapter, what the discovery filter says, which
/// sightings a scan reports, how peers are named, how long to back off.
struct BlueZCentralUnitTests {
    typealias F = BlueZObjectFixture
    static let smp = ServiceID(BluetoothUUID(string: F.smpService) ?? BluetoothUUID(short: 0))

    // MARK: - Adapter choice

    @Test func theFirstPoweredAdapterIsChosenWhenNoneIsNamed() throws {
        let adapters = F.tree([F.adapter("hci0", powered: false), F.adapter("hci1"), F.adapter("hci2")]).adapters
        #expect(try BlueZCentral.choose(nil, from: adapters).name == "hci1")
        #expect(try BlueZCentral.choose("hci2", from: adapters).name == "hci2")
    }

    @Test func eachAdapterProblemHasItsOwnError() {
        let adapters = F.tree([F.adapter("hci0", powered: false), F.adapter("hci1")]).adapters
        #expect(throws: BlueZError.noAdapter) { try BlueZCentral.choose(nil, from: []) }
        #expect(throws: BlueZError.adapterNotFound("hci7", available: ["hci0", "hci1"])) {
            try BlueZCentral.choose("hci7", from: adapters)
        }
        #expect(throws: BlueZError.adapterPoweredOff("hci0")) { try BlueZCentral.choose("hci0", from: adapters) }
        let allOff = F.tree([F.adapter("hci0", powered: false)]).adapters
        #expect(throws: BlueZError.adapterPoweredOff("hci0")) { try BlueZCentral.choose(nil, from: allOff) }
    }

    // MARK: - Filter

    @Test func theDiscoveryFilterUsesTheWireTypesBlueZInsistsOn() {
        let filter = BlueZScanFilter(services: [Self.smp, ServiceID(short: 0xFE59)], minimumRSSI: -70)
        let properties = (try? filter.discoveryFilter.asProperties()) ?? [:]
        #expect(properties["RSSI"] == .int16(-70))
        #expect(properties["Transport"] == .string("le"))
        #expect(properties["DuplicateData"] == .bool(true))
        #expect(properties["UUIDs"] == .strings([F.smpService, "0000fe59-0000-1000-8000-00805f9b34fb"]))
        let open = (try? BlueZScanFilter().discoveryFilter.asProperties()) ?? [:]
        #expect(open["UUIDs"] == nil)
        #expect(open["RSSI"] == nil)
        let absurd = (try? BlueZScanFilter(minimumRSSI: -100_000).discoveryFilter.asProperties()) ?? [:]
        #expect(absurd["RSSI"] == .int16(-127))
    }

    @Test func matchesAreRecheckedBecauseBlueZMergesEveryClientsFilter() {
        let filter = BlueZScanFilter(services: [Self.smp], minimumRSSI: -70)
        let device = BlueZDiscoveredDevice(address: "C2:11:40:55:7A:01", rssi: -60, services: [Self.smp])
        #expect(filter.matches(device))
        var weak = device
        weak.rssi = -71
        #expect(!filter.matches(weak))
        var unheard = device
        unheard.rssi = nil
        #expect(!filter.matches(unheard))
        var otherService = device
        otherService.services = [ServiceID(short: 0x180F)]
        #expect(!filter.matches(otherService))
        #expect(BlueZScanFilter().matches(unheard))
    }

    // MARK: - Scan bookkeeping

    @Test func aScanReportsHeardMatchingDevicesOnceAndKeepsTheirLatestRSSI() {
        var collector = BlueZScanCollector(filter: BlueZScanFilter(services: [Self.smp]), adapterPath: "/org/bluez/hci0")
        let tree = F.tree([
            F.adapter("hci0"),
            F.device(address: "AA:00:00:00:00:01", name: "cached", uuids: [F.smpService]),  // no RSSI: not heard
            F.device(address: "AA:00:00:00:00:02", name: "near", rssi: -40, uuids: [F.smpService]),
            F.device(address: "AA:00:00:00:00:03", name: "far", rssi: -80, uuids: [F.smpService]),
            F.device(address: "AA:00:00:00:00:04", name: "other", rssi: -30, uuids: ["0000180f-0000-1000-8000-00805f9b34fb"]),
            F.device(adapter: "hci1", address: "AA:00:00:00:00:05", rssi: -20, uuids: [F.smpService]),
        ])
        let first = collector.consider(tree.devices(of: "/org/bluez/hci0") + tree.devices(of: "/org/bluez/hci1"))
        #expect(first.map(\.device.name) == ["near", "far"])
        #expect(first.map(\.isNew) == [true, true])

        var farther = tree
        _ = farther.apply(F.propertiesChanged(F.devicePath(address: "AA:00:00:00:00:03"), "org.bluez.Device1", ["RSSI": .int16(-30)]))
        let again = collector.consider(farther.devices(of: "/org/bluez/hci0"))
        #expect(again.map(\.isNew) == [false, false])
        #expect(collector.matches.map(\.name) == ["far", "near"])
        #expect(collector.matches.map(\.rssi) == [-30, -40])
    }

    @Test func strongestFirstPutsUnheardLastAndBreaksTiesByAddress() {
        let devices = [
            BlueZDiscoveredDevice(address: "B", rssi: nil), BlueZDiscoveredDevice(address: "C", rssi: -50),
            BlueZDiscoveredDevice(address: "A", rssi: -50), BlueZDiscoveredDevice(address: "D", rssi: -10),
        ]
        #expect(devices.sorted(by: BlueZDiscoveredDevice.strongestFirst).map(\.address) == ["D", "A", "C", "B"])
    }

    @Test func onlyDevice1ChangesFeedAScan() {
        let device = F.devicePath(address: "AA:00:00:00:00:01")
        #expect(BlueZScanSession.devicePath(of: .added(path: device, interfaces: ["org.bluez.Device1"])) == device)
        #expect(BlueZScanSession.devicePath(of: .properties(path: device, interface: "org.bluez.Device1",
                                                            changed: [:], invalidated: ["RSSI"])) == device)
        #expect(BlueZScanSession.devicePath(of: .added(path: device + "/service000a",
                                                       interfaces: ["org.bluez.GattService1"])) == nil)
        #expect(BlueZScanSession.devicePath(of: .removed(path: device, interfaces: ["org.bluez.Device1"])) == nil)
    }

    // MARK: - Peers and backoff

    @Test func peersAreAddressesInAnyCaseOrNames() {
        #expect(BlueZPeerTarget(PeerIdentity("c2:11:40:55:7a:01")) == .address("C2:11:40:55:7A:01"))
        #expect(BlueZPeerTarget(PeerIdentity("name:sensor-12")) == .name("sensor-12"))
        #expect(BlueZPeerTarget(PeerIdentity("name:")) == nil)
        #expect(BlueZPeerTarget(PeerIdentity("C2:11:40:55:7A")) == nil)
        #expect(BlueZPeerTarget(PeerIdentity("C2:11:40:55:7A:0G")) == nil)
        #expect(BlueZPeerTarget(PeerIdentity("127.0.0.1:1337")) == nil)
    }

    @Test func backoffDoublesUpToItsCapAndNeverPassesTheDeadline() {
        var backoff = BlueZBackoff()
        let now = ContinuousClock.now
        let far = now.advanced(by: .seconds(60))
        let pauses = (0..<6).map { _ in backoff.pause(now: now, deadline: far) }
        #expect(pauses == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)])
        #expect(backoff.pause(now: now, deadline: now.advanced(by: .milliseconds(300))) == .milliseconds(300))
        #expect(backoff.pause(now: now, deadline: now.advanced(by: .seconds(-1))) == .zero)
    }

    // MARK: - Where a reconnect looks

    @Test func anAddressPeerIsLookedForWhereItWasLastReachedThenByItsName() {
        var memory = BlueZPeerMemory()
        let peer = BlueZPeerTarget.address("C2:11:40:55:7A:01")
        #expect(memory.plan(for: peer) == .init(address: "C2:11:40:55:7A:01", name: nil))
        memory.record(peer, reachedAt: "C2:11:40:55:7A:01", name: "sensor-12")
        #expect(memory.plan(for: peer) == .init(address: "C2:11:40:55:7A:01", name: "sensor-12"))
        // Once connected BlueZ shows the GAP name; the advertised one is kept.
        memory.record(peer, reachedAt: "C2:11:40:55:7A:01", name: "Zephyr")
        #expect(memory.plan(for: peer).name == "sensor-12")
        // Back under a new address (found by name): the next connect tries that one first.
        memory.record(peer, reachedAt: "D0:00:00:00:00:09", name: "sensor-12")
        #expect(memory.plan(for: peer) == .init(address: "D0:00:00:00:00:09", name: "sensor-12"))
    }

    @Test func aNamePeerIsLookedForAtTheAddressItWasReachedAt() {
        var memory = BlueZPeerMemory()
        let peer = BlueZPeerTarget.name("dfu-rig-sim")
        #expect(memory.plan(for: peer) == .init(address: nil, name: "dfu-rig-sim"))
        memory.record(peer, reachedAt: "00:AA:01:00:00:00", name: "BlueZ 5.66")
        #expect(memory.plan(for: peer) == .init(address: "00:AA:01:00:00:00", name: "dfu-rig-sim"))
        #expect(memory.plan(for: .address("00:AA:01:00:00:00")).name == "dfu-rig-sim")
    }
}
