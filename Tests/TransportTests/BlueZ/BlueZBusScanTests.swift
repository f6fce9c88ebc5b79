import BlueZStandIn
import BlueZTransport
import Harness
import Testing
import Transport

/// `BlueZCentral.scan` against the stand-in: service filter, RSSI floor, time limit, stop on match.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusScanTests {
    static let near = "C2:00:00:00:00:01"
    static let nearer = "C2:00:00:00:00:02"
    static let far = "C2:00:00:00:00:03"
    static let other = "C2:00:00:00:00:04"
    static let unnamed = "C2:00:00:00:00:05"

    private func addDevices(_ bench: BlueZStandInBench) async throws {
        try await bench.addTestPeripheral(address: Self.near, name: "near", rssi: -60)
        try await bench.addTestPeripheral(address: Self.nearer, name: "nearer", rssi: -45)
        try await bench.addTestPeripheral(address: Self.far, name: "far", rssi: -90)
        try await bench.addTestPeripheral(address: Self.other, name: "other", services: [ServiceID(short: 0x180D)], rssi: -40)
        try await bench.addTestPeripheral(address: Self.unnamed, name: nil, rssi: -70)
    }

    @Test func serviceFilterAndRSSIFloorStrongestFirst() async throws {
        try await BlueZStandInBench.run { bench in
            try await addDevices(bench)
            let central = try await BlueZBus.open(bench)
            let seen = Recorded<String>()
            let filter = BlueZScanFilter(services: [BlueZBus.smpService], minimumRSSI: -65)
            let devices = try await HangGuard.within("the scan") {
                // Long enough for every device to advertise many times even on a loaded machine.
                try await central.scan(filter, timeout: .seconds(3), found: { seen.append($0.address) })
            }
            #expect(devices.map(\.address) == [Self.nearer, Self.near])
            #expect(devices.map(\.name) == ["nearer", "near"])
            #expect(devices.map(\.rssi) == [-45, -60])
            #expect(devices.allSatisfy { $0.services.contains(BlueZBus.smpService) && !$0.connected })
            #expect(devices.first?.addressType == "random")
            #expect(Set(seen.all) == [Self.nearer, Self.near])
            #expect(seen.all.count == 2, "found() once per device")
            // Discovery is stopped however the scan ends.
            let client = try await bench.client()
            let adapter = try await client.call(destination: "org.bluez", path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                                                member: "GetManagedObjects").argument(0).asManagedObjects()["/org/bluez/hci0"]
            #expect(adapter?["org.bluez.Adapter1"]?["Discovering"] == .bool(false))
            client.close()
            central.close()
        }
    }

    @Test func noFilterListsEveryDeviceAndAnAddressAliasIsNoName() async throws {
        try await BlueZStandInBench.run { bench in
            try await addDevices(bench)
            let central = try await BlueZBus.open(bench)
            let heard = Recorded<String>()
            let devices = try await HangGuard.within("the scan", .seconds(30)) {
                // Ends once all five were heard, so a loaded machine only makes it slower.
                try await central.scan(BlueZScanFilter(), timeout: .seconds(20),
                                       stopWhen: { _ in Set(heard.all).count == 5 }, found: { heard.append($0.address) })
            }
            #expect(Set(devices.map(\.address)) == [Self.near, Self.nearer, Self.far, Self.other, Self.unnamed])
            #expect(devices.first { $0.address == Self.unnamed }?.name == nil)
            #expect(devices.map(\.rssi) == [-40, -45, -60, -70, -90])
            central.close()
        }
    }

    /// A scan whose time limit is far beyond the hang guard: only stopping at the match ends it.
    @Test func stopsAtTheFirstMatchWhenAsked() async throws {
        try await BlueZStandInBench.run { bench in
            try await addDevices(bench)
            let central = try await BlueZBus.open(bench)
            let devices = try await HangGuard.within("the scan to stop at its match", .seconds(30)) {
                try await central.scan(BlueZScanFilter(services: [BlueZBus.smpService]), timeout: .seconds(600),
                                       stopWhen: { $0.name == "far" })
            }
            #expect(devices.contains { $0.name == "far" })
            #expect(!devices.contains { $0.name == "other" })
            central.close()
        }
    }

    @Test func adapterPoweredOffAfterOpenFailsTheScan() async throws {
        try await BlueZStandInBench.run { bench in
            let central = try await BlueZBus.open(bench)
            try await bench.requireStandIn().setPowered(false)
            let error: BlueZError? = await {
                do throws(BlueZError) {
                    _ = try await central.scan(BlueZScanFilter(), timeout: .seconds(1))
                    return nil
                } catch {
                    return error
                }
            }()
            #expect(error == .adapterPoweredOff("hci0"))
            central.close()
        }
    }
}
