import BlueZStandIn
import DBusBinding
@testable import DeviceSim
import Harness
import Testing
import Transport

/// A private `dbus-daemon` for one test (`PrivateDBusDaemon` from the BlueZStandIn support
/// target: a fresh temp dir, a config where everyone may own and send anything, SIGKILL on stop),
/// stopped by `withBus` on every path, including failures.
final class BlueZPeripheralTestBus: Sendable {
    private let daemon: PrivateDBusDaemon

    private init(daemon: PrivateDBusDaemon) {
        self.daemon = daemon
    }

    /// Runs `body` with a fresh bus and always stops it afterwards.
    static func withBus<T: Sendable>(_ body: (BlueZPeripheralTestBus) async throws -> T) async throws -> T {
        try await PrivateDBusDaemon.withDaemon { daemon in try await body(BlueZPeripheralTestBus(daemon: daemon)) }
    }

    var busAddress: DBusBusAddress { .address(daemon.address) }
}

/// Bounded waits (`PeripheralWait.within { … }`): the shared hang guard, whose long bound only turns
/// a hang into a failure; nothing is slept for.
typealias PeripheralWait = HangGuard

let peripheralDBusAvailable = PrivateDBusDaemon.daemonPath != nil
let peripheralDBusSkipReason: Comment = "dbus-daemon is not installed (make deps installs it); BlueZ peripheral tests skipped"

extension BlueZPeripheralTestBus {
    /// A fresh bus with a stand-in bluetoothd, and the peripheral `start` serves on it; `body`
    /// runs with both, and the peripheral is stopped on every path.
    static func withServed<Model: PeripheralModel>(
        _ start: @escaping @Sendable (BlueZPeripheralTestBus) async throws -> BlueZPeripheral<Model>,
        _ body: @escaping @Sendable (FakeBlueZ, BlueZPeripheral<Model>) async throws -> Void) async throws {
        try await withBus { bus in
            try await PeripheralWait.within {
                let bluez = try await FakeBlueZ.start(on: bus)
                let peripheral = try await start(bus)
                do {
                    try await body(bluez, peripheral)
                } catch {
                    await peripheral.stop()
                    throw error
                }
                await peripheral.stop()
            }
        }
    }
}
