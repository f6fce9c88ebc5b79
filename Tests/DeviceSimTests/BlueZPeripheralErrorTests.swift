import DBusBinding
@testable import DeviceSim
import Testing
import Transport

/// Each way BlueZ can be unusable gives its own error before anything is registered.
@Suite(.enabled(if: peripheralDBusAvailable, peripheralDBusSkipReason))
struct BlueZPeripheralErrorTests {
    private func serveError(on bus: BlueZPeripheralTestBus, adapter: String = "hci0") async -> BlueZServeError? {
        do {
            let peripheral = try await BlueZPeripheral.serve(SimOptions(), adapter: adapter, bus: bus.busAddress)
            await peripheral.stop()
            return nil
        } catch {
            return error
        }
    }

    @Test func noBluetoothdOnTheBus() async throws {
        let error = try await BlueZPeripheralTestBus.withBus { bus in
            try await PeripheralWait.within { await serveError(on: bus) }
        }
        #expect(error == .bluetoothdNotRunning)
        #expect(error?.description.contains("systemctl start bluetooth") == true)
    }

    @Test func anAdapterThatIsNotThereNamesTheOnesThatAre() async throws {
        let error = try await BlueZPeripheralTestBus.withBus { bus in
            try await PeripheralWait.within {
                let bluez = try await FakeBlueZ.start(on: bus)
                let error = await serveError(on: bus, adapter: "hci1")
                #expect(await bluez.calls.isEmpty)
                return error
            }
        }
        #expect(error == .noAdapter("hci1", available: ["hci0"]))
        #expect(error?.description == "no Bluetooth adapter hci1 (adapters present: hci0): pick one with --serve bluez:hciN")
    }

    @Test func aPoweredOffAdapter() async throws {
        let error = try await BlueZPeripheralTestBus.withBus { bus in
            try await PeripheralWait.within {
                let bluez = try await FakeBlueZ.start(on: bus, powered: false)
                let error = await serveError(on: bus)
                #expect(await bluez.calls.isEmpty)
                return error
            }
        }
        #expect(error == .poweredOff("hci0"))
        #expect(error?.description.contains("bluetoothctl power on") == true)
    }

    @Test func noBusAtAll() async throws {
        let failure: BlueZServeError?
        do {
            _ = try await BlueZPeripheral.serve(SimOptions(), adapter: "hci0",
                                                bus: .address("unix:path=/nonexistent/dfu-test-bus"))
            failure = nil
        } catch {
            failure = error
        }
        guard case .busUnreachable? = failure else {
            Issue.record("expected busUnreachable, got \(String(describing: failure))")
            return
        }
    }

    @Test func accessDeniedSaysWhoMayUseBluetoothd() {
        let error = BlueZServeError.classify(DBusError.remote(name: "org.freedesktop.DBus.Error.AccessDenied",
                                                              message: "Rejected send message"), operation: "x")
        #expect(error.description.contains("run as root or as a member of the 'bluetooth' group"))
    }
}
