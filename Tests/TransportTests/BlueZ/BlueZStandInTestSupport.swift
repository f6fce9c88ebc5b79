import BlueZStandIn
import DBusBinding
import Foundation
import Harness
import Testing
import Transport

/// A raw D-Bus client of the stand-in, as bluetoothd's own clients (bluetoothctl, bleak) talk to
/// it: calls to `org.bluez` and a log of every signal it sends, recorded from before the first call.
actor RawBlueZClient {
    let connection: DBusConnection
    private(set) var signals: [DBusSignal] = []
    private var waiters: [(id: Int, test: @Sendable ([DBusSignal]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    private var lastWaiter = 0
    private var reader: Task<Void, Never>?

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    static func connect(_ bench: BlueZStandInBench) async throws -> RawBlueZClient {
        let connection = try await bench.client()
        let client = RawBlueZClient(connection: connection)
        let stream = try await connection.signals(matching: DBusMatchRule(sender: "org.bluez"))
        await client.startReading(stream)
        return client
    }

    private func startReading(_ stream: AsyncStream<DBusSignal>) {
        reader = Task { [weak self] in
            for await signal in stream { await self?.record(signal) }
        }
    }

    private func record(_ signal: DBusSignal) {
        signals.append(signal)
        let ready = waiters.filter { $0.test(signals) }
        waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Waits (hang-guarded) until the signals received so far satisfy `test`.
    func waitUntil(_ what: String, _ test: @escaping @Sendable ([DBusSignal]) -> Bool) async throws {
        try await HangGuard.within(what) { await self.suspendUntil(test) }
    }

    private func suspendUntil(_ test: @escaping @Sendable ([DBusSignal]) -> Bool) async {
        if test(signals) { return }
        lastWaiter += 1
        let id = lastWaiter
        await withCheckedContinuation { waiters.append((id, test, $0)) }
    }

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) async throws
        -> [DBusValue] {
        try await connection.call(destination: "org.bluez", path: path, interface: interface, member: member,
                                  arguments: arguments, timeout: HangGuard.limit)
    }

    /// The D-Bus error a call fails with (nil if it succeeded).
    func error(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) async -> DBusError? {
        do {
            _ = try await call(path, interface, member, arguments)
            return nil
        } catch let error as DBusError {
            return error
        } catch {
            return .malformed("\(error)")
        }
    }

    func managedObjects() async throws -> [String: [String: [String: DBusValue]]] {
        try await call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects").argument(0).asManagedObjects()
    }

    func close() {
        reader?.cancel()
        connection.close()
    }
}

extension DBusSignal {
    var propertiesChanged: DBusPropertiesChanged? { try? DBusPropertiesChanged(self) }
    var interfacesAdded: DBusInterfacesAdded? { try? DBusInterfacesAdded(self) }
    var interfacesRemoved: DBusInterfacesRemoved? { try? DBusInterfacesRemoved(self) }
}

/// Blocking socket work on a thread of its own, so the cooperative pool (2 threads here) stays
/// free for the stand-in while a test waits on a descriptor.
enum BlockingIO {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }

    /// Writes each datagram, waiting for writability on EAGAIN. Returns how many were written and
    /// how often the socket was full.
    static func writeAll(_ descriptor: Int32, _ datagrams: [[UInt8]]) async -> (written: Int, full: Int) {
        await run {
            var written = 0
            var full = 0
            for datagram in datagrams {
                while true {
                    let sent = datagram.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent == datagram.count {
                        written += 1
                        break
                    }
                    guard sent < 0, errno == EAGAIN else { return (written, full) }
                    full += 1
                    var waiter = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiter, 1, 60_000)
                }
            }
            return (written, full)
        }
    }

    /// Reads one datagram (waiting up to 60 s); nil at EOF/HUP or on timeout.
    static func readDatagram(_ descriptor: Int32) async -> [UInt8]? {
        await run {
            var waiter = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiter, 1, 60_000) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return nil }
            return Array(buffer[0 ..< count])
        }
    }

    /// Whether the peer shut the socket down (HUP), waiting up to 60 s.
    static func sawHangUp(_ descriptor: Int32) async -> Bool {
        await run {
            var waiter = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiter, 1, 60_000) > 0 else { return false }
            if waiter.revents & Int16(POLLHUP) != 0 { return true }
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK)) == 0
        }
    }
}

let standInAvailable = PrivateDBusDaemon.daemonPath != nil
let standInSkipReason: Comment = "dbus-daemon is not installed (make deps installs it); BlueZ stand-in tests skipped"
