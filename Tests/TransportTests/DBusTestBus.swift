import BlueZStandIn
import DBusBinding
import Foundation
import Harness
import Testing
import Transport

/// A private `dbus-daemon` for one test (`PrivateDBusDaemon` from the BlueZStandIn support
/// target: a fresh temp dir, a config where everyone may own and send anything, SIGKILL on stop),
/// stopped by `withBus` on every path, including failures.
final class DBusTestBus: Sendable {
    /// dbus-daemon's path, or nil when it is not installed (`make deps` installs it).
    static let daemonPath = PrivateDBusDaemon.daemonPath

    private let daemon: PrivateDBusDaemon

    var address: String { daemon.address }

    private init(daemon: PrivateDBusDaemon) {
        self.daemon = daemon
    }

    /// Runs `body` with a fresh bus and always stops it afterwards.
    static func withBus<T: Sendable>(_ body: (DBusTestBus) async throws -> T) async throws -> T {
        try await PrivateDBusDaemon.withDaemon { daemon in try await body(DBusTestBus(daemon: daemon)) }
    }

    /// Kills the daemon at once (SIGKILL), as a crash would; waits for it to be gone.
    func kill() {
        daemon.kill()
    }

    func connect() async throws -> DBusConnection {
        try await DBusConnection.connect(to: .address(address))
    }
}

/// Bounded waits: `HangGuard`'s bound only turns a hang into a failure; nothing is slept for.
enum DBusWait {
    static let hangLimit = HangGuard.limit

    static func within<T: Sendable>(_ limit: Duration = hangLimit,
                                    _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await HangGuard.within("the D-Bus operation", limit, body)
    }

    /// The first `count` elements of a stream (fewer if it ends).
    static func take<S: AsyncSequence & Sendable>(_ count: Int, from stream: S) async throws -> [S.Element]
        where S.Element: Sendable {
        try await within {
            var taken: [S.Element] = []
            guard count > 0 else { return taken }
            for try await element in stream {
                taken.append(element)
                if taken.count == count { break }
            }
            return taken
        }
    }
}

/// Releases handlers that wait: each waiting handler awaits `wait()`, the test calls `open()`.
/// Also reports how many handlers have started waiting, so a test knows a call arrived.
final class DBusTestGate: Sendable {
    private let opened: AsyncStream<Void>
    private let openContinuation: AsyncStream<Void>.Continuation
    let entered: AsyncStream<Void>
    private let enteredContinuation: AsyncStream<Void>.Continuation

    init() {
        (opened, openContinuation) = AsyncStream<Void>.makeStream()
        (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
    }

    func wait() async {
        enteredContinuation.yield()
        // Ends when `open()` finishes the stream (single waiter per gate).
        for await _ in opened {}
    }

    func open() {
        openContinuation.finish()
    }
}

/// Our own tiny service: an object that echoes, fails, waits, and writes to fds.
enum DBusEchoService {
    static let path = "/org/dfu/test/echo"
    static let interface = "org.dfu.Test"

    static func object(gate: DBusTestGate = DBusTestGate()) -> DBusExportedObject {
        DBusExportedObject(path: path, interfaces: [
            DBusExportedInterface(name: interface, methods: [
                "Echo": { call in call.arguments },
                "Fail": { _ in throw DBusError.remote(name: "org.bluez.Error.NotReady", message: "Resource Not Ready") },
                "Throw": { _ in throw CancellationError() },
                "Wait": { _ in
                    await gate.wait()
                    return []
                },
                // Writes the bytes (arg 1) to the fd (arg 0) it was handed.
                "WriteTo": { call in
                    let fd = try call.arguments.argument(0).asUnixFD()
                    let bytes = try call.arguments.argument(1).asBytes()
                    let written = bytes.withUnsafeBytes { write(fd.descriptor, $0.baseAddress, $0.count) }
                    return [.int32(Int32(written))]
                },
                // A reply whose values are not valid D-Bus (array element of the wrong type).
                "BadReply": { _ in [.array(elementSignature: "s", [.int32(1)])] },
            ], properties: [
                "Name": .string("echo"),
                "Level": .byte(87),
            ]),
        ])
    }

    /// Calls a method of the echo object on `service` through `client`.
    static func call(_ client: DBusConnection, on service: DBusConnection, _ member: String,
                     _ arguments: [DBusValue] = [], timeout: Duration = DBusWait.hangLimit) async throws -> [DBusValue] {
        try await client.call(destination: service.uniqueName, path: path, interface: interface,
                              member: member, arguments: arguments, timeout: timeout)
    }
}

/// Whether `dbus-daemon` is there to run the D-Bus tests against.
let dbusDaemonAvailable = DBusTestBus.daemonPath != nil
let dbusSkipReason: Comment = "dbus-daemon is not installed (make deps installs it); D-Bus tests skipped"
