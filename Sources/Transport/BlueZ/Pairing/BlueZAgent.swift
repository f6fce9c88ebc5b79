import DBusBinding
import Synchronization
import Transport

/// dfu's `org.bluez.Agent1`, exported on the central's own bus connection and registered with
/// AgentManager1 for the run (bluez-dbus.md §9): `Device1.Pair` called from that connection uses
/// it, with its IO capability. What it answers is `BlueZAgentPolicy`'s; this type exports it,
/// carries the answers out and remembers what happened for the connector's messages. Passkeys are
/// never logged.
final class BlueZAgent: Sendable {
    static let path = "/org/dfu/agent"

    let capability: String
    private let connection: DBusConnection
    private let policy: BlueZAgentPolicy
    private let prompt: (any BlueZPairingPrompt)?
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var allowed: Set<String> = []
        /// Why the latest request was refused, for the error that follows.
        var lastRefusal: String?
        /// A passkey or a confirmation was given: the pairing that follows is authenticated.
        var authenticatedAnswer = false
        /// A passkey or a confirmation was asked for since `resetOutcome`.
        var asked = false
        var registered = false
        /// bluetoothd's unique bus name: the only caller answered.
        var bluetoothd: String?
    }

    private init(connection: DBusConnection, pairing: BlueZPairing, capability: String,
                 log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.capability = capability
        policy = BlueZAgentPolicy(input: pairing.input)
        if case .prompt(let prompt) = pairing.input { self.prompt = prompt } else { prompt = nil }
        self.log = log
    }

    /// Exports and registers an agent for `pairing`; nil when it asks for none (`.none`). A refusal
    /// by bluetoothd is the stack's problem (`BlueZError`).
    static func register(on connection: DBusConnection, pairing: BlueZPairing,
                         log: @escaping @Sendable (String) -> Void) async throws(BlueZError) -> BlueZAgent? {
        guard let capability = pairing.capability else { return nil }
        let agent = BlueZAgent(connection: connection, pairing: pairing, capability: capability, log: log)
        do {
            let owner = try await connection.call(destination: DBusStandardInterface.bus, path: "/org/freedesktop/DBus",
                                                  interface: DBusStandardInterface.bus, member: "GetNameOwner",
                                                  arguments: [.string(BlueZNames.service)], timeout: .seconds(5))
            let bluetoothd = try owner.argument(0).asString()
            agent.state.withLock { $0.bluetoothd = bluetoothd }
            try await connection.export(agent.exportedObject())
            _ = try await connection.call(destination: BlueZNames.service, path: BlueZNames.agentManagerPath,
                                          interface: BlueZNames.agentManager, member: "RegisterAgent",
                                          arguments: [.objectPath(path), .string(capability)], timeout: .seconds(10))
        } catch {
            try? await connection.unexport(path: path)
            throw BlueZError.from(error as? DBusError ?? .malformed(String(describing: error)))
        }
        agent.state.withLock { $0.registered = true }
        log("pairing agent registered (\(capability))")
        return agent
    }

    /// Unregisters (bluetoothd would drop it with our bus connection anyway) and stops serving it.
    func unregister() async {
        let wasRegistered = state.withLock { state in
            defer { state.registered = false }
            return state.registered
        }
        guard wasRegistered else { return }
        _ = try? await connection.call(destination: BlueZNames.service, path: BlueZNames.agentManagerPath,
                                       interface: BlueZNames.agentManager, member: "UnregisterAgent",
                                       arguments: [.objectPath(Self.path)], timeout: .seconds(5))
        try? await connection.unexport(path: Self.path)
    }

    /// From now on requests about `devicePath` are answered.
    func allow(_ devicePath: String) {
        _ = state.withLock { $0.allowed.insert(devicePath) }
    }

    /// Forgets what the last pairing's requests said, before a new `Pair`.
    func resetOutcome() {
        state.withLock { state in
            state.lastRefusal = nil
            state.authenticatedAnswer = false
            state.asked = false
        }
    }

    /// Why the agent refused the latest request, if it did.
    var lastRefusal: String? { state.withLock { $0.lastRefusal } }

    /// Whether bluetoothd asked for a passkey or a confirmation since `resetOutcome`.
    var wasAsked: Bool { state.withLock { $0.asked } }

    /// Whether the agent gave a passkey or confirmed a number since `resetOutcome`.
    var gaveAuthenticatedAnswer: Bool { state.withLock { $0.authenticatedAnswer } }

    // MARK: - Serving

    private func exportedObject() -> DBusExportedObject {
        var methods: [String: DBusMethodHandler] = [:]
        var signatures: [String: DBusMethodSignature] = [:]
        for (member, signature) in BlueZAgentRequest.signatures {
            methods[member] = { [weak self] call in
                guard let self else { throw Self.rejected }
                return try await self.handle(call)
            }
            signatures[member] = DBusMethodSignature(arguments: signature.arguments, reply: signature.reply)
        }
        return DBusExportedObject(path: Self.path, interfaces: [
            DBusExportedInterface(name: BlueZNames.agent, methods: methods, signatures: signatures),
        ])
    }

    private func handle(_ call: DBusMethodCall) async throws -> [DBusValue] {
        // Only bluetoothd may ask: anyone else on the bus could otherwise read the passkey.
        let (allowed, bluetoothd) = state.withLock { ($0.allowed, $0.bluetoothd) }
        guard call.sender == bluetoothd,
              let request = BlueZAgentRequest(member: call.member, arguments: call.arguments) else {
            throw Self.rejected
        }
        let label = request.device.map(Self.label) ?? "the device"
        let decision = policy.decide(request, allowed: allowed)
        switch decision {
        case .passkey, .askPasskey, .askConfirmation: state.withLock { $0.asked = true }
        default: break
        }
        switch decision {
        case .passkey(let passkey):
            log("pairing: \(label) asked for the passkey; answered with --passkey")
            state.withLock { $0.authenticatedAnswer = true }
            return [.uint32(passkey.value)]
        case .accept:
            return []
        case .reject(let why):
            log("pairing: refused \(call.member) for \(label): \(why)")
            state.withLock { $0.lastRefusal = why }
            throw Self.rejected
        case .askPasskey:
            guard let prompt, let passkey = await prompt.enterPasskey(device: label) else {
                state.withLock { $0.lastRefusal = "no passkey was entered" }
                throw Self.rejected
            }
            state.withLock { $0.authenticatedAnswer = true }
            return [.uint32(passkey.value)]
        case .askConfirmation(let passkey):
            guard let prompt, await prompt.confirm(passkey: passkey, device: label) else {
                state.withLock { $0.lastRefusal = "the number was not confirmed" }
                throw Self.rejected
            }
            state.withLock { $0.authenticatedAnswer = true }
            return []
        case .show(let passkey):
            await prompt?.display(passkey: passkey, device: label)
            state.withLock { $0.authenticatedAnswer = true }
            return []
        case .cancelled:
            log("pairing: bluetoothd cancelled the request")
            await prompt?.cancelled()
            return []
        }
    }

    /// "…:EE:FF" for ".../dev_AA_BB_CC_DD_EE_FF".
    private static func label(_ devicePath: String) -> String {
        BlueZObjectTree.addressFromPath(devicePath).map { PeerIdentity($0).redacted } ?? "a device"
    }

    /// doc/agent-api.txt: a refusal is `org.bluez.Error.Rejected`.
    static let rejected = DBusError.remote(name: "org.bluez.Error.Rejected", message: "Rejected")
}
