import BlueZStandIn
import BlueZTransport
import Harness
import Synchronization
import Testing
import Transport

/// What the stand-in takes from the device model behind it, for the fault campaign's `bluez-*`
/// runs: when the device is heard (`onAir`, e.g. `MemoryConnector.isAdvertising`), under which
/// name (`nameOnAir`, `MemoryConnector.advertisedName`), and an
/// indicate-only characteristic (the Nordic buttonless one) as bluetoothd 5.66 exports it.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZStandInDeviceModelTests {
    /// A device with one write + indicate characteristic that answers each write with an indication.
    actor IndicatingPeripheral: MemoryPeripheral {
        static let service = ServiceID(short: 0xFE59)
        static let characteristic = CharacteristicID(BluetoothUUID(high: 0x8EC9_0003_F315_4F60, low: 0x9FB8_8388_30DA_EA50))
        private var session: MemoryPeripheralSession?

        var gattServices: [GATTService] {
            [GATTService(Self.service, characteristics: [GATTCharacteristic(Self.characteristic, properties: [.write, .indicate])])]
        }

        func handleConnect(_ session: MemoryPeripheralSession) {
            self.session = session
        }

        func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {
            try? await session?.notify([0x20] + value, from: characteristic)
        }
    }

    @Test func aDeviceIsHeardOnlyWhileItsModelSaysItIsOnAir() async throws {
        try await BlueZStandInBench.run { bench in
            let onAir = Atomic(false)
            try await bench.addTestPeripheral(address: BlueZBus.address) { device in
                device.onAir = { onAir.load(ordering: .relaxed) }
            }
            let central = try await BlueZBus.open(bench)
            let silent = try await central.scan(BlueZScanFilter(), timeout: .milliseconds(300))
            #expect(!silent.contains { $0.address == BlueZBus.address })
            onAir.store(true, ordering: .relaxed)
            let heard = try await central.scan(BlueZScanFilter(), timeout: .seconds(10)) { $0.address == BlueZBus.address }
            #expect(heard.contains { $0.address == BlueZBus.address })
            central.close()
        }
    }

    /// A Nordic bootloader advertises the name its application was given: the stand-in takes the
    /// model's name at each advertising interval, and Device1.Name follows it.
    @Test func aDeviceIsHeardUnderTheNameItsModelAdvertisesNow() async throws {
        try await BlueZStandInBench.run { bench in
            let given = Mutex<String?>(nil)
            try await bench.addTestPeripheral(address: BlueZBus.address, name: "DfuTarg") { device in
                device.nameOnAir = { given.withLock { $0 } }
            }
            let central = try await BlueZBus.open(bench)
            let first = try await central.scan(BlueZScanFilter(), timeout: .seconds(10)) { $0.address == BlueZBus.address }
            #expect(first.first { $0.address == BlueZBus.address }?.name == "DfuTarg", "no name from the model: the spec's")
            given.withLock { $0 = "Dfu40213" }
            let renamed = try await central.scan(BlueZScanFilter(), timeout: .seconds(10)) {
                $0.address == BlueZBus.address && $0.name == "Dfu40213"
            }
            #expect(renamed.contains { $0.address == BlueZBus.address && $0.name == "Dfu40213" })
            central.close()
        }
    }

    /// Flags say "indicate"; StartNotify subscribes and the indications arrive as notifications;
    /// AcquireNotify is not offered (5.66 needs the notify flag), so dfu never tries it.
    @Test func anIndicateOnlyCharacteristicTakesStartNotify() async throws {
        try await BlueZStandInBench.run { bench in
            let peer = PeerIdentity("memory:indicating")
            await bench.connector.register(IndicatingPeripheral(), as: peer, profile: .fast2M)
            try await bench.requireStandIn().add(BlueZStandInDevice(
                address: BlueZBus.address,
                advertisement: BlueZStandInAdvertisement(name: "nrf52", services: [IndicatingPeripheral.service]),
                connector: bench.connector, peer: peer))
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [IndicatingPeripheral.service]))
            let characteristic = try #require(link.services.flatMap(\.characteristics)
                .first { $0.id == IndicatingPeripheral.characteristic })
            #expect(characteristic.properties == [.write, .indicate])
            try await link.subscribe(IndicatingPeripheral.characteristic)
            try await link.write([0x01], to: IndicatingPeripheral.characteristic)
            let indication = try await HangGuard.within("the indication") { () async -> [UInt8]? in
                for await event in link.events {
                    if case .notification(IndicatingPeripheral.characteristic, let bytes) = event.kind { return bytes }
                }
                return nil
            }
            #expect(indication == [0x20, 0x01])
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.startNotifyCalls == 1)
            #expect(statistics.acquireNotifyCalls == 0)
            await link.disconnect()
            central.close()
        }
    }
}
