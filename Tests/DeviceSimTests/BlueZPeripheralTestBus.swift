import BlueZStandIn
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
