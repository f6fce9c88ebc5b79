import Transport

/// Reaching a device that may answer under one of several peers (an nRF5 application, or its
/// bootloader at the address + 1 or under its own name) with one discovery for all of them,
/// rather than a turn each: a turn spent on an address nobody advertises costs its whole length.
extension BlueZConnector {
    public func connect(toAnyOf peers: [PeerIdentity],
                        deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        let searchStart = ContinuousClock.now
        return try await connectLastResortsLast(toAnyOf: peers, deadline: deadline) { peers, deadline, laterPhaseFollows async throws(LinkError) in
            try await connectOnce(toAnyOf: peers, deadline: deadline, listenOnly: laterPhaseFollows, heardSince: searchStart)
        }
    }

    /// `listenOnly`: one discovery until `deadline`, and no turns at dialling known devices after it.
    /// `heardSince`: when the whole search began; what an earlier phase heard counts as heard now
    /// (the last resort, ignored while only the others were wanted, may never be reported again).
    private func connectOnce(toAnyOf peers: [PeerIdentity], deadline: ContinuousClock.Instant,
                             listenOnly: Bool, heardSince: ContinuousClock.Instant) async throws(LinkError)
        -> (PeerIdentity, any Link) {
        let targets = peers.compactMap { peer in BlueZPeerTarget(peer).map { (peer, $0) } }
        guard targets.count > 1 || listenOnly else { return try await connectTakingTurns(toAnyOf: peers, deadline: deadline) }
        if Task.isCancelled { throw .cancelled }
        let plans = targets.map { (peer: $0.0, target: $0.1, plan: plan(for: $0.1)) }
        let services = expectedServices
        // Which peer a device is: its address, or (for a name peer) its name with an expected service.
        let match: @Sendable (BlueZDeviceInfo) -> PeerIdentity? = { device in
            plans.first { entry in
                if let address = entry.plan.address, device.address == address { return true }
                switch entry.target {
                case .name(let name), .soleName(let name):
                    return device.name == name && (services.isEmpty || device.services.contains(where: services.contains))
                case .address:
                    return false
                }
            }?.peer
        }
        let start = ContinuousClock.now
        let halfway = listenOnly ? deadline : start.advanced(by: start.duration(to: deadline) / 2)
        // Heard in a discovery running now or in an earlier phase, or connected: no need to listen
        // for it. Not connected by a link of ours that has ended: bluetoothd's Connected=false
        // trails the hang-up, and the device may come back elsewhere (a bootloader that started the
        // application at another address), so it must be heard like the others.
        let known = client.store.tree.devices(of: adapter.path).first { device in
            (device.rssi != nil || (device.connected && !lastLinkEnded(at: device.path))) && match(device) != nil
        } ?? devicesHeard(since: heardSince).first { match($0) != nil }
        var heard = known
        if heard == nil {
            log("looking for any of " + peers.map(\.redacted).joined(separator: ", "))
            heard = try await discover(until: halfway, filter: BlueZScanFilter()) { match($0) != nil }
        }
        let chosen = heard.flatMap(match)
        if let chosen, let heard {
            if let target = BlueZPeerTarget(chosen) { try await checkSole(target, heard, heardSince: heardSince) }
            do throws(LinkError) {
                // Dialled as heard; a device known only as connected is left to `find`, which
                // knows a stale Connected=true after a reboot (`BlueZComeback`).
                return (chosen, try await connect(to: chosen, deadline: deadline, heard: heard.rssi != nil ? heard : nil))
            } catch {
                switch error {
                case .timeout, .peerNotFound: break
                default: throw error
                }
            }
        }
        // Nothing heard (a device bluetoothd knows is not always reported again), or the one heard
        // could not be reached: the peers take turns for the time left (unless only listening).
        if listenOnly { throw .timeout }
        return try await connectTakingTurns(toAnyOf: peers, deadline: deadline)
    }
}
