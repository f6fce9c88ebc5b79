import Foundation
import Transport

/// Which bus to connect to.
public enum DBusBusAddress: Sendable {
    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` when set, else libdbus's default socket.
    case system
    /// An explicit address (`unix:path=/tmp/x/bus`), e.g. a private test bus.
    case address(String)

    /// The address to open: for `.system`, `DBUS_SYSTEM_BUS_ADDRESS` from `environment` when set,
    /// else nil (libdbus's built-in system socket). Read here rather than by libdbus so the choice
    /// is testable without changing the process environment.
    public func resolvedAddress(environment: [String: String]) -> String? {
        switch self {
        case .system:
            guard let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty else { return nil }
            return address
        case .address(let address):
            return address
        }
    }
}

/// A private connection to a D-Bus bus.
///
/// Threading: each connection has one owner thread that makes every libdbus call for it
/// (`DBusConnectionLoop`). This type holds only Sendable state (the unique name and the job queue
/// into that thread), so it is Sendable without `@unchecked`: every method queues a job and awaits
/// its result through a continuation, and signals arrive through `AsyncStream`s. A blocking libdbus
/// call therefore never runs on the cooperative thread pool, and libdbus never sees two threads.
///
/// Dropping the last reference (or `close()`) closes the connection; pending calls then fail with
/// `DBusError.closed`. If the bus goes away they fail with `DBusError.disconnected`.
public final class DBusConnection: Sendable {
    /// The bus's name for this connection (`:1.42`).
    public let uniqueName: String
    private let jobs: DBusJobQueue

    private init(uniqueName: String, jobs: DBusJobQueue) {
        self.uniqueName = uniqueName
        self.jobs = jobs
    }

    deinit {
        _ = jobs.submit { $0.shutDown() }
    }

    /// Connects and registers with the bus (Hello). libdbus's exit-on-disconnect is turned off.
    public static func connect(to bus: DBusBusAddress = .system,
                               environment: [String: String] = ProcessInfo.processInfo.environment)
        async throws -> DBusConnection {
        let jobs = try DBusJobQueue()
        let address = bus.resolvedAddress(environment: environment)
        let uniqueName: String = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                DBusConnectionLoop.run(address: address, jobs: jobs) { continuation.resume(with: $0) }
            }
            thread.name = "dbus"
            thread.start()
        }
        return DBusConnection(uniqueName: uniqueName, jobs: jobs)
    }

    /// Closes the connection now; waiting calls fail with `DBusError.closed`, streams end.
    public func close() {
        _ = jobs.submit { $0.shutDown() }
    }

    /// Calls a method and returns the reply's arguments. Throws `DBusError.remote` with the error
    /// name the peer sent, `.timedOut` when no reply came within `timeout`, `.disconnected` when
    /// the bus went away, `.cancelled` when the calling task was cancelled.
    public func call(destination: String?, path: String, interface: String?, member: String,
                     arguments: [DBusValue] = [], timeout: Duration = .seconds(25)) async throws -> [DBusValue] {
        let id = jobs.nextID()
        let jobs = self.jobs
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let queued = jobs.submit { loop in
                    loop.startCall(id: id, destination: destination, path: path, interface: interface,
                                   member: member, arguments: arguments, timeout: timeout,
                                   continuation: continuation)
                }
                if !queued { continuation.resume(throwing: DBusError.closed) }
            }
        } onCancel: {
            _ = jobs.submit { $0.cancelCall(id: id) }
        }
    }

    /// Signals matching `rule`, in the order they arrived. The bus has accepted the match rule when
    /// this returns, so every matching signal sent afterwards is delivered. The stream ends when the
    /// connection closes or breaks; ending it (dropping the iterator, cancelling) removes the rule.
    ///
    /// A well-known `sender` (`org.bluez`) delivers only signals from the name's current owner,
    /// following it when the name changes hands, and nothing while it has no owner; the owner is
    /// known when this returns.
    public func signals(matching rule: DBusMatchRule) async throws -> AsyncStream<DBusSignal> {
        let busRule = try rule.busRule()
        let id = jobs.nextID()
        let jobs = self.jobs
        let (stream, continuation) = AsyncStream<DBusSignal>.makeStream()
        continuation.onTermination = { _ in
            _ = jobs.submit { $0.removeSubscription(id: id, busRule: busRule) }
        }
        guard jobs.submit({ $0.addSubscription(id: id, rule: rule, continuation: continuation) }) else {
            throw DBusError.closed
        }
        do {
            if let name = DBusNameOwners.trackedName(rule.sender) { try await watchOwner(of: name) }
            _ = try await callBus("AddMatch", [.string(busRule)])
        } catch {
            continuation.finish()
            throw error
        }
        return stream
    }

    /// Emits a signal from one of our objects.
    public func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue] = []) async throws {
        try await perform { try $0.emitSignal(path: path, interface: interface, member: member, arguments: arguments) }
    }

    /// Serves `object` (replacing one at the same path). Properties Get/GetAll are answered from
    /// its interfaces; an ObjectManager above it announces it with InterfacesAdded.
    public func export(_ object: DBusExportedObject) async throws {
        try await perform { try $0.export(object) }
    }

    /// Stops serving the object at `path`; an ObjectManager above it sends InterfacesRemoved.
    public func unexport(path: String) async throws {
        try await perform { try $0.unexport(path: path) }
    }

    /// Serves `org.freedesktop.DBus.ObjectManager` at `root`: GetManagedObjects lists every exported
    /// object below it (BlueZ's GattManager1.RegisterApplication reads an application this way).
    public func exportObjectManager(at root: String) async throws {
        try await perform { try $0.exportObjectManager(at: root) }
    }

    /// Changes a property of an exported object and emits PropertiesChanged for it.
    public func setProperty(path: String, interface: String, name: String, value: DBusValue) async throws {
        try await perform { try $0.setProperty(path: path, interface: interface, name: name, value: value) }
    }

    /// Asks the bus for a well-known name.
    public func requestName(_ name: String, flags: DBusNameFlags = [.doNotQueue]) async throws -> DBusRequestNameReply {
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        let code = try reply.argument(0).asUInt32()
        guard let answer = DBusRequestNameReply(rawValue: code) else {
            throw DBusError.malformed("RequestName answered \(code)")
        }
        return answer
    }

    /// Returns once the connection knows who owns `name` and follows its changes.
    private func watchOwner(of name: String) async throws {
        let jobs = self.jobs
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let queued = jobs.submit { $0.watchOwner(of: name, continuation: continuation) }
            if !queued { continuation.resume(throwing: DBusError.closed) }
        }
    }

    private func callBus(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await call(destination: DBusStandardInterface.bus, path: "/org/freedesktop/DBus",
                       interface: DBusStandardInterface.bus, member: member, arguments: arguments)
    }

    /// Runs a short job on the owner thread and returns its outcome.
    private func perform(_ body: @escaping @Sendable (DBusConnectionLoop) throws -> Void) async throws {
        let jobs = self.jobs
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let queued = jobs.submit { loop in continuation.resume(with: Result { try body(loop) }) }
            if !queued { continuation.resume(throwing: DBusError.closed) }
        }
    }
}
