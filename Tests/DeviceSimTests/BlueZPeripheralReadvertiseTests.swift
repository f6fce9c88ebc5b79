import DeviceSim
import Testing
import Transport

/// `dfu sim --readvertise`: the advertisement registered again and again while no central is
/// connected (for btvirt, which reports an advertiser only when its advertising or a scan starts),
/// and left alone while one is.
@Suite(.enabled(if: peripheralDBusAvailable, peripheralDBusSkipReason))
struct BlueZPeripheralReadvertiseTests {
    static let advertisement = "/org/dfu/sim/hci0/advertisement"

    @Test func theAdvertisementStartsAgainWhileNoCentralIsConnectedOnly() async throws {
        try await BlueZPeripheralTestBus.withServed({ bus in
            try await BlueZPeripheral.serve(try SimOptions.parse("sim"), adapter: "hci0",
                                            readvertiseEvery: .milliseconds(100), bus: bus.busAddress)
        }) { bluez, _ in
            await bluez.waitForCalls(6)
            #expect(Array(await bluez.calls.prefix(6)) == [
                "RegisterApplication /org/dfu/sim/hci0/app", "RegisterAdvertisement \(Self.advertisement)",
                "UnregisterAdvertisement \(Self.advertisement)", "RegisterAdvertisement \(Self.advertisement)",
                "UnregisterAdvertisement \(Self.advertisement)", "RegisterAdvertisement \(Self.advertisement)",
            ])
            try await bluez.connectCentral()
            try await bluez.startNotify() // a call from the central: it is surely seen as connected now
            let connected = await bluez.calls.count
            try await Task.sleep(for: .milliseconds(600))
            let calls = await bluez.calls
            // At most one restart already under way when the central came.
            #expect(calls.count - connected <= 2, "\(calls.suffix(8))")
            #expect(calls.last == "RegisterAdvertisement \(Self.advertisement)", "\(calls.suffix(4))")
        }
    }

    @Test func withoutTheOptionTheAdvertisementIsRegisteredOnce() async throws {
        try await BlueZPeripheralTestBus.withServed({ bus in
            try await BlueZPeripheral.serve(try SimOptions.parse("sim"), adapter: "hci0", bus: bus.busAddress)
        }) { bluez, _ in
            await bluez.waitForCalls(2)
            try await Task.sleep(for: .milliseconds(400))
            #expect(await bluez.calls == ["RegisterApplication /org/dfu/sim/hci0/app",
                                          "RegisterAdvertisement \(Self.advertisement)"])
        }
    }
}
