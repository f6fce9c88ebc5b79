import DBusBinding
import Transport

/// Device1.Pair / CancelPairing and the SMP pairing behind them (device.c `pair_device`,
/// `new_auth`, `passkey_cb`, `new_authentication_return`; agent.c `agent_request_passkey`), and
/// the bonds it leaves (§9): Paired and Bonded true, every later link encrypted at the bond's level.
extension StandInCore {
    struct PairingState {
        let id: UInt64
        /// Started by Device1.Pair (device.c `device->bonding`): only that one CancelPairing ends.
        let requested: Bool
        /// Who called Device1.Pair (nil for pairing BlueZ started itself).
        var requester: String? = nil
        let agent: AgentState?
        /// The agent request waiting for its reply (cancelled by CancelPairing).
        var agentRequest: Task<Result<[DBusValue], DBusError>, Never>?
        var cancelled = false
        /// Others that want to raise this device's security wait for this pairing to end.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Why a pairing failed, as `new_authentication_return` names the mgmt status.
    enum PairingFailure: Error {
        case authenticationFailed, rejected, canceled, timeout

        var error: DBusError {
            switch self {
            case .authenticationFailed: StandInError.authenticationFailed
            case .rejected: StandInError.authenticationRejected
            case .canceled: StandInError.authenticationCanceled
            case .timeout: StandInError.authenticationTimeout
            }
        }
    }

    /// device.c `pair_device`: InProgress while a bonding runs, AlreadyExists when bonded; the
    /// caller's agent (else the default one, else NoInputNoOutput) answers; a device that is not
    /// connected is connected first (`device_connect_le`, then `att_connect_cb` starts bonding).
    func pair(_ path: String, sender: String) async throws -> [DBusValue] {
        guard let device = devices[path] else { throw StandInError.doesNotExist }
        stats(device.owner) { $0.pairCalls += 1 }
        if pairings[path] != nil { throw StandInError.inProgress }
        if bonds[path] != nil { throw StandInError.alreadyExists }
        // device_connect_le: an LE attempt already pending is -EALREADY.
        if device.pendingConnect != nil { throw StandInError.failed("Operation already in progress") }
        let id = nextID()
        let agent = agent(for: sender)
        pairings[path] = PairingState(id: id, requested: true, requester: sender, agent: agent)
        defer { endPairing(path, id) }
        if devices[path]?.connection == nil {
            do {
                _ = try await connect(path, counted: false)
            } catch {
                // att_connect_cb: the bonding is answered with strerror(ECONNABORTED).
                throw StandInError.failed("Software caused connection abort")
            }
        }
        guard let connection = devices[path]?.connection else { throw StandInError.authenticationCanceled }
        if pairings[path]?.cancelled == true {
            await dropForSecurity(connection)
            throw StandInError.authenticationCanceled
        }
        if case .failure(let failure) = await runPairing(path, connection: connection, agent: agent, minimum: .none) {
            throw failure.error
        }
        return []
    }

    /// device.c `cancel_pairing`: DoesNotExist without a bonding; else the Pair call gets
    /// AuthenticationCanceled, and an agent still asked gets Cancel() (`bonding_request_free` →
    /// `agent_cancel`).
    func cancelPairing(_ path: String) throws -> [DBusValue] {
        guard let pairing = pairings[path], pairing.requested else { throw StandInError.doesNotExist }
        abortPairing(path)
        return []
    }

    /// Ends a pairing under way: it fails Canceled and its link drops; an agent still asked
    /// gets Cancel(). Also when the device is removed, or the Pair caller left the bus (device.c
    /// `create_bond_req_exit`: cancel the authentication, disconnect).
    func abortPairing(_ path: String) {
        guard let pairing = pairings[path], !pairing.cancelled else { return }
        pairings[path]?.cancelled = true
        if let request = pairing.agentRequest, let agent = pairing.agent {
            request.cancel()
            notifyAgent(agent, "Cancel", [], device: devices[path]?.owner)
        }
    }

    /// One SMP pairing on a live link, as the kernel runs it with `agent`'s IO capability (none:
    /// NoInputNoOutput). Success stores the bond and raises the link; a result below `minimum`
    /// (Just Works where MITM is needed) fails. Every failure drops the link (§9).
    func runPairing(_ path: String, connection: UInt64, agent: AgentState?, minimum: BlueZStandInLinkSecurity) async
        -> Result<BlueZStandInLinkSecurity, PairingFailure> {
        let owner = devices[path]?.owner
        let spec = connections[connection].flatMap { peripherals[$0.peripheral]?.spec }
        let passkey = spec?.passkey
        let method = StandInPairingMethod.choose(devicePasskey: passkey, device: spec?.io ?? .keyboardOnly,
                                                 initiator: agent?.capability ?? .noInputNoOutput)
        var outcome: Result<BlueZStandInLinkSecurity, PairingFailure>
        switch (method, agent, passkey) {
        case (.passkeyEntry, let agent?, let expected?):
            outcome = await requestPasskey(path, agent: agent, expected: expected, device: owner)
        case (.numericComparison, let agent?, let shown?):
            outcome = await requestConfirmation(path, agent: agent, shown: shown, device: owner)
        case (.displayPasskey, let agent?, let expected?):
            // agent.c `agent_display_passkey` (entered 0): the device types its own N instead.
            var shown = UInt32.random(in: 0 ... 999_999)
            while shown == expected { shown = UInt32.random(in: 0 ... 999_999) }
            notifyAgent(agent, "DisplayPasskey", [.objectPath(path), .uint32(shown), .uint16(0)], device: owner)
            outcome = .failure(.authenticationFailed)
        default:
            outcome = .success(.encrypted)
        }
        if case .success(let level) = outcome, level < minimum { outcome = .failure(.authenticationFailed) }
        if pairings[path]?.cancelled == true { outcome = .failure(.canceled) }
        switch outcome {
        case .success(let level):
            // The link (or the device) went while we waited: mgmt status Disconnected.
            guard connections[connection] != nil, devices[path] != nil else { return .failure(.canceled) }
            bonded(path, level: level)
            connections[connection]?.security = level
            // Both sides hold the new key now.
            if let peripheral = connections[connection]?.peripheral { peripherals[peripheral]?.spec.bondLost = false }
        case .failure:
            await dropForSecurity(connection)
        }
        return outcome
    }

    /// agent.c `agent_request_passkey` → device.c `passkey_cb`: an error reply (or a reply of the
    /// wrong shape) is a negative reply.
    private func requestPasskey(_ path: String, agent: AgentState, expected: UInt32, device: Int?) async
        -> Result<BlueZStandInLinkSecurity, PairingFailure> {
        switch await askAgent(path, agent: agent, "RequestPasskey", [.objectPath(path)], device: device) {
        case .success(let values):
            guard let entered = try? values.argument(0).asUInt32() else { return .failure(.rejected) }
            return entered == expected ? .success(.authenticated) : .failure(.authenticationFailed)
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// agent.c `agent_request_confirmation` → device.c `confirm_cb`: an empty reply confirms the
    /// number both sides show; an error reply is a negative reply.
    private func requestConfirmation(_ path: String, agent: AgentState, shown: UInt32, device: Int?) async
        -> Result<BlueZStandInLinkSecurity, PairingFailure> {
        let arguments: [DBusValue] = [.objectPath(path), .uint32(shown)]
        switch await askAgent(path, agent: agent, "RequestConfirmation", arguments, device: device) {
        case .success: return .success(.authenticated)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// One agent request of a pairing, cancellable by CancelPairing; no reply in time is a
    /// timeout and the agent gets Cancel().
    private func askAgent(_ path: String, agent: AgentState, _ member: String, _ arguments: [DBusValue],
                          device: Int?) async -> Result<[DBusValue], PairingFailure> {
        let request = Task {
            do {
                return Result<[DBusValue], DBusError>.success(
                    try await callAgent(agent, member, arguments, device: device))
            } catch let error as DBusError {
                return .failure(error)
            } catch {
                return .failure(.malformed("\(error)"))
            }
        }
        pairings[path]?.agentRequest = request
        let reply = await request.value
        pairings[path]?.agentRequest = nil
        if pairings[path]?.cancelled == true { return .failure(.canceled) }
        switch reply {
        case .success(let values):
            return .success(values)
        case .failure(.timedOut):
            notifyAgent(agent, "Cancel", [], device: device)
            return .failure(.timeout)
        case .failure(.remote(name: "org.bluez.Error.Canceled", _)):
            return .failure(.canceled)
        case .failure:
            return .failure(.rejected)
        }
    }

    func endPairing(_ path: String, _ id: UInt64) {
        guard let pairing = pairings[path], pairing.id == id else { return }
        pairings[path] = nil
        for waiter in pairing.waiters { waiter.resume() }
    }

    /// The keys arrived (adapter.c `new_long_term_key_callback` → `device_set_bonded`), then
    /// pairing completed (`device_bonding_complete` → `device_set_paired`): two signals.
    func bonded(_ path: String, level: BlueZStandInLinkSecurity) {
        bonds[path] = max(level, bonds[path] ?? .none)
        if property(path, StandInName.device, "Bonded") != .bool(true) {
            setProperties(path, StandInName.device, ["Bonded": .bool(true)])
        }
        if property(path, StandInName.device, "Paired") != .bool(true) {
            setProperties(path, StandInName.device, ["Paired": .bool(true)])
        }
    }

    /// The kernel drops the link after failed pairing; returns once it is down.
    func dropForSecurity(_ id: UInt64) async {
        guard let link = connections[id]?.link else { return }
        connections[id]?.droppedForSecurity = true
        await withCheckedContinuation { (down: CheckedContinuation<Void, Never>) in
            connections[id]?.downWaiters.append(down)
            Task { await link.disconnect() }
        }
        await outbox.flush()
    }

    /// A pairing runs for this device: returns once it ended.
    func waitForPairing(_ path: String) async {
        guard pairings[path] != nil else { return }
        await withCheckedContinuation { pairings[path]?.waiters.append($0) }
    }

    /// `BlueZStandIn.setBonded`: keys as bluetoothd loads them from storage (`load_devices`),
    /// exporting a device never heard, as a stored one is.
    func setBonded(address: String, adapter: String, level: BlueZStandInLinkSecurity) {
        let path = StandInName.devicePath(adapter: adapter, address: address)
        if devices[path] == nil, let state = adapters[adapter],
           let peripheral = peripherals.values.sorted(by: { $0.id < $1.id })
               .first(where: { $0.spec.adapter == adapter && $0.address == address }) {
            bonds[path] = level
            createDevice(path: path, address: address, adapter: state, peripheral: peripheral.id, heard: nil,
                         storedName: peripheral.spec.advertisement.name)
        }
        bonded(path, level: level)
        if let connection = devices[path]?.connection, let current = connections[connection]?.security {
            connections[connection]?.security = max(current, level)
        }
    }

    func linkSecurity(_ path: String) -> BlueZStandInLinkSecurity? {
        devices[path]?.connection.flatMap { connections[$0]?.security }
    }
}
