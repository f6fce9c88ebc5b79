import DBusBinding
import Transport

/// org.bluez.AgentManager1 on `/org/bluez` and the calls bluetoothd makes to agents (agent.c,
/// 5.66): one agent per client, a queue of default candidates whose head is the default agent.
extension StandInCore {
    struct AgentState: Sendable, Equatable {
        let owner: String
        let path: String
        let capability: StandInIOCapability
    }

    static let agentInterface = "org.bluez.Agent1"

    func agentManagerInterface(_ path: String) -> DBusExportedInterface {
        DBusExportedInterface(name: StandInName.agentManager, methods: [
            "RegisterAgent": method(path, signature: "os") { core, call in
                try await core.registerAgent(sender: call.sender, call.arguments)
            },
            "UnregisterAgent": method(path, signature: "o") { core, call in
                try await core.unregisterAgent(sender: call.sender, call.arguments)
            },
            "RequestDefaultAgent": method(path, signature: "o") { core, call in
                try await core.requestDefaultAgent(sender: call.sender, call.arguments)
            },
        ])
    }

    /// agent.c `register_agent`: AlreadyExists for a second agent of the same client, then the
    /// capability ("" is KeyboardDisplay). `agent_create`: the first agent becomes the default,
    /// later ones queue behind it.
    func registerAgent(sender: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        if agents[sender] != nil { throw StandInError.alreadyExists }
        guard case .objectPath(let path)? = arguments.first, case .string(let name)? = arguments.dropFirst().first,
              let capability = StandInIOCapability(registered: name) else { throw StandInError.invalidArguments }
        agents[sender] = AgentState(owner: sender, path: path, capability: capability)
        defaultAgents.append(sender)
        return []
    }

    /// agent.c `unregister_agent`: DoesNotExist unless this client has an agent at this path.
    /// No Release() is sent (the watch is gone before `agent_destroy`).
    func unregisterAgent(sender: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        guard let agent = agents[sender] else { throw StandInError.doesNotExist }
        guard case .objectPath(let path)? = arguments.first else { throw StandInError.invalidArguments }
        guard path == agent.path else { throw StandInError.doesNotExist }
        removeAgent(owner: sender)
        return []
    }

    /// agent.c `request_default`: moves the caller's agent to the head of the default queue.
    func requestDefaultAgent(sender: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        guard let agent = agents[sender] else { throw StandInError.doesNotExist }
        guard case .objectPath(let path)? = arguments.first else { throw StandInError.invalidArguments }
        guard path == agent.path else { throw StandInError.doesNotExist }
        defaultAgents.removeAll { $0 == sender }
        defaultAgents.insert(sender, at: 0)
        return []
    }

    /// agent.c `agent_disconnect` / `remove_default_agent`: the next queued agent becomes default.
    func removeAgent(owner: String) {
        agents[owner] = nil
        defaultAgents.removeAll { $0 == owner }
    }

    /// agent.c `agent_get`: the owner's own agent, else the default one, else none.
    func agent(for owner: String?) -> AgentState? {
        if let owner, let agent = agents[owner] { return agent }
        return defaultAgents.first.flatMap { agents[$0] }
    }

    /// An Agent1 request with a reply (agent.c `passkey_request_new`), recorded by name.
    func callAgent(_ agent: AgentState, _ member: String, _ arguments: [DBusValue], device: Int?) async throws
        -> [DBusValue] {
        stats(device) { $0.agentCalls.append(member) }
        return try await bus.call(destination: agent.owner, path: agent.path, interface: Self.agentInterface,
                                  member: member, arguments: arguments, timeout: timing.agentTimeout)
    }

    /// An Agent1 message bluetoothd sends without waiting for a reply (agent.c
    /// `agent_display_passkey`, `send_cancel_request`: `g_dbus_send_message`).
    func notifyAgent(_ agent: AgentState, _ member: String, _ arguments: [DBusValue], device: Int?) {
        stats(device) { $0.agentCalls.append(member) }
        let bus = self.bus
        Task {
            _ = try? await bus.call(destination: agent.owner, path: agent.path, interface: Self.agentInterface,
                                    member: member, arguments: arguments, timeout: .seconds(5))
        }
    }
}
