import BlueZStandIn
import DBusBinding
import Foundation
import Harness
import Transport

/// An `org.bluez.Agent1` for the stand-in's pairing tests, exported on a client's own connection
/// (so it is that client's agent, as bluetoothctl's is). It answers RequestPasskey as told and
/// records every call bluetoothd made to it, in order.
actor StandInTestAgent {
    enum Answer: Sendable {
        /// Reply with this passkey.
        case passkey(UInt32)
        /// Reply `org.bluez.Error.Rejected`.
        case reject
        /// Reply `org.bluez.Error.Canceled`.
        case cancel
        /// Never reply (until bluetoothd sends Cancel, or the test ends).
        case silence
    }

    let connection: DBusConnection
    let path: String
    private(set) var calls: [String] = []
    private var answer: Answer
    private var silent: [CheckedContinuation<Void, Never>] = []

    private init(connection: DBusConnection, path: String, answer: Answer) {
        self.connection = connection
        self.path = path
        self.answer = answer
    }

    /// Exports the agent at `path` on `connection` and registers it with `capability`;
    /// `makeDefault` also calls RequestDefaultAgent.
    static func register(on connection: DBusConnection, capability: String, answer: Answer,
                         path: String = "/test/agent", makeDefault: Bool = false) async throws -> StandInTestAgent {
        let agent = StandInTestAgent(connection: connection, path: path, answer: answer)
        try await connection.export(DBusExportedObject(path: path, interfaces: [agent.interface()]))
        _ = try await connection.call(destination: "org.bluez", path: "/org/bluez", interface: "org.bluez.AgentManager1",
                                      member: "RegisterAgent", arguments: [.objectPath(path), .string(capability)])
        if makeDefault {
            _ = try await connection.call(destination: "org.bluez", path: "/org/bluez",
                                          interface: "org.bluez.AgentManager1", member: "RequestDefaultAgent",
                                          arguments: [.objectPath(path)])
        }
        return agent
    }

    /// The handlers hold the agent: it lives as long as its connection exports it.
    nonisolated private func interface() -> DBusExportedInterface {
        DBusExportedInterface(name: "org.bluez.Agent1", methods: [
            "RequestPasskey": { _ in try await self.requestPasskey() },
            "DisplayPasskey": { _ in
                await self.record("DisplayPasskey")
                return []
            },
            "Cancel": { _ in
                await self.cancelled()
                return []
            },
            "Release": { _ in
                await self.record("Release")
                return []
            },
        ])
    }

    private func record(_ member: String) {
        calls.append(member)
    }

    private func requestPasskey() async throws -> [DBusValue] {
        calls.append("RequestPasskey")
        switch answer {
        case .passkey(let passkey):
            return [.uint32(passkey)]
        case .reject:
            throw DBusError.remote(name: "org.bluez.Error.Rejected", message: "Rejected by the test")
        case .cancel:
            throw DBusError.remote(name: "org.bluez.Error.Canceled", message: "Canceled by the test")
        case .silence:
            await withCheckedContinuation { silent.append($0) }
            throw DBusError.remote(name: "org.bluez.Error.Canceled", message: "Canceled")
        }
    }

    private func cancelled() {
        calls.append("Cancel")
        for waiter in silent { waiter.resume() }
        silent = []
    }

    /// Waits until the agent saw `count` calls.
    func waitForCalls(_ count: Int) async throws {
        try await HangGuardPolling.until("\(count) agent calls") { await self.calls.count >= count }
    }

    /// Lets a silent request go (the test is ending).
    func release() {
        for waiter in silent { waiter.resume() }
        silent = []
    }
}

/// Polls a condition (hang-guarded) where no signal announces it.
enum HangGuardPolling {
    static func until(_ what: String, _ condition: @escaping @Sendable () async -> Bool) async throws {
        try await HangGuard.within(what) {
            while await !condition() { try await Task.sleep(for: .milliseconds(5)) }
        }
    }
}
