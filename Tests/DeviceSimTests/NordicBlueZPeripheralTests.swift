import DBusBinding
import DFUCore
@testable import DeviceSim
import Testing
import Transport

/// `BlueZPeripheral` serving the simulated nRF52 (`serveNordic`) against the stand-in bluetoothd:
/// the application's database and advertisement, buttonless entry (indication, then the reset
/// steps in order), the bootloader's database under DfuTarg at the same address, and its Control
/// Point answering through PropertiesChanged. Whole updates over the real bluetoothd run on the
/// rig (`make test-bluez`, scripts/bluez-rig-nordic.sh).
@Suite(.enabled(if: peripheralDBusAvailable, peripheralDBusSkipReason))
struct NordicBlueZPeripheralTests {
    static let fe59 = "0000fe59-0000-1000-8000-00805f9b34fb"

    private func withNordic(clock: LinkClock, events: EventLog = EventLog(),
                            _ body: @escaping @Sendable (FakeBlueZ, BlueZPeripheral<NordicPeripheralModel>) async throws -> Void)
        async throws {
        try await BlueZPeripheralTestBus.withServed({ bus in
            try await BlueZPeripheral.serveNordic(try SimOptions.parse("sim:protocol=nordic,inactivity=off"), adapter: "hci0",
                                                  name: "nrf-test", bus: bus.busAddress, clock: clock) { events.append($0) }
        }, body)
    }

    private static func flags(in tree: [String: [String: [String: DBusValue]]]) throws -> [String: [String]] {
        var flags: [String: [String]] = [:]
        for interfaces in tree.values {
            guard let characteristic = interfaces["org.bluez.GattCharacteristic1"] else { continue }
            flags[try #require(try characteristic["UUID"]?.asString())] = try characteristic["Flags"]?.asStrings()
        }
        return flags
    }

    private static func next(_ stream: AsyncStream<[UInt8]>) async throws -> [UInt8]? {
        try await PeripheralWait.within {
            for await value in stream { return value }
            return nil
        }
    }

    @Test func buttonlessEntryResetsIntoTheBootloaderUnderItsNameAtTheSameAddress() async throws {
        let clock = LinkClock.manual()
        let events = EventLog()
        try await withNordic(clock: clock, events: events) { bluez, peripheral in
            // The application: buttonless DFU (write + indicate) in 0xFE59, advertised with 0xFE59.
            #expect(try Self.flags(in: await bluez.application) == [
                "8ec90003-f315-4f60-9fb8-838830daea50": ["write", "indicate"],
                "00002a19-0000-1000-8000-00805f9b34fb": ["read", "notify"],
                "00002a26-0000-1000-8000-00805f9b34fb": ["read"],
            ])
            #expect(await bluez.advertisement["ServiceUUIDs"] == .strings([Self.fe59]))
            #expect(await bluez.advertisement["LocalName"] == .string("nrf-test"))
            #expect(try await bluez.read(NordicDeviceGATT.firmwareRevision) == Array("0.0.1".utf8))

            // A Write Request before indications are on is refused with an application error
            // (BlueZ cannot send the SDK's 0xFD: §10.6).
            try await bluez.connectCentral()
            await #expect(throws: DBusError.remote(name: "org.bluez.Error.Failed", message: "0x80")) {
                try await bluez.write([0x01], to: NordicDeviceGATT.buttonless)
            }

            try await bluez.startNotify(NordicDeviceGATT.buttonless)
            let indications = try await bluez.notifications(of: NordicDeviceGATT.buttonless)
            try await bluez.write([0x01], to: NordicDeviceGATT.buttonless)
            #expect(try await Self.next(indications) == [0x20, 0x01, 0x01])
            await bluez.waitForCalls(5)
            clock.advance(by: .seconds(1))
            await bluez.waitForCalls(7)
            #expect(await bluez.calls == [
                "RegisterApplication /org/dfu/sim/hci0/app", "RegisterAdvertisement /org/dfu/sim/hci0/advertisement",
                "UnregisterAdvertisement /org/dfu/sim/hci0/advertisement", "Disconnect \(FakeBlueZ.centralPath)",
                "UnregisterApplication /org/dfu/sim/hci0/app",
                "RegisterApplication /org/dfu/sim/hci0/app1", "RegisterAdvertisement /org/dfu/sim/hci0/advertisement",
            ])
            // The bootloader: Control Point (write + notify) and Packet (write without response),
            // advertised as DfuTarg with 0xFE59, at the adapter's one address.
            #expect(try Self.flags(in: await bluez.application) == [
                "8ec90001-f315-4f60-9fb8-838830daea50": ["write", "notify"],
                "8ec90002-f315-4f60-9fb8-838830daea50": ["write-without-response"],
            ])
            #expect(await bluez.advertisement["LocalName"] == .string("DfuTarg"))
            #expect(await bluez.advertisement["ServiceUUIDs"] == .strings([Self.fe59]))
            #expect(peripheral.address == FakeBlueZ.adapterAddress)

            // The Control Point answers through PropertiesChanged: Select(command) on a fresh
            // bootloader is offset 0, CRC 0.
            try await bluez.connectCentral()
            try await bluez.startNotify(NordicDeviceGATT.controlPoint)
            let responses = try await bluez.notifications(of: NordicDeviceGATT.controlPoint)
            try await bluez.write([0x06, 0x01], to: NordicDeviceGATT.controlPoint)
            let select = try #require(try await Self.next(responses))
            #expect(Array(select.prefix(3)) == [0x60, 0x06, 0x01])
            #expect(select.count == 15 && select.suffix(8).allSatisfy { $0 == 0 })
            #expect(await peripheral.snapshot.boots.map(\.target) == [.bootloader])
        }
        let lines = events.lines
        #expect(lines.contains("up again (boot 1) in its bootloader as DfuTarg"), "\(lines)")
        #expect(lines.contains("advertising again as DfuTarg"), "\(lines)")
    }
}
