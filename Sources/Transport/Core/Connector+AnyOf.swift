extension Connector {
    /// How long one turn waits for one of several peers before the next gets its turn.
    public static var anyOfTurn: Duration { .seconds(2) }

    public func connect(toAnyOf peers: [PeerIdentity],
                        deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        try await connectTakingTurns(toAnyOf: peers, deadline: deadline)
    }

    /// `connect(toAnyOf:)` by turns: each peer gets `anyOfTurn` in turn until `deadline`. One peer
    /// is `connect(to:deadline:)` itself. Peers the backend knows cannot be found drop out; when
    /// none is left, or the deadline passes, the last error (`.timeout` for the deadline) is thrown.
    public func connectTakingTurns(toAnyOf peers: [PeerIdentity],
                                   deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        guard peers.count > 1 else {
            guard let peer = peers.first else { throw .peerNotFound(PeerIdentity("")) }
            return (peer, try await connect(to: peer, deadline: deadline))
        }
        var remaining = peers
        var index = 0
        var lastError = LinkError.timeout
        while !remaining.isEmpty {
            if Task.isCancelled { throw .cancelled }
            let now = ContinuousClock.now
            guard now < deadline else { throw lastError }
            let peer = remaining[index % remaining.count]
            let turn = min(deadline, now.advanced(by: Self.anyOfTurn))
            do throws(LinkError) {
                return (peer, try await connect(to: peer, deadline: turn))
            } catch {
                switch error {
                case .timeout:
                    lastError = error
                    index += 1
                case .peerNotFound:
                    remaining.removeAll { $0 == peer }
                    lastError = error
                default:
                    throw error
                }
            }
        }
        throw lastError
    }
}

/// Last-resort peers: `sole-name:NAME`, a device found only by a name other devices may share (a
/// Nordic bootloader under its default `DfuTarg`). One is considered only after the other peers
/// stayed silent for `lastResortDelay`, so that a device of the same kind already advertising
/// nearby is not taken for the one that is still starting; and then only while no second device
/// answers to it (`LinkError.ambiguous`).
extension Connector {
    public static var lastResortDelay: Duration { .seconds(5) }

    public static func isLastResort(_ peer: PeerIdentity) -> Bool { peer.rawValue.hasPrefix("sole-name:") }

    /// `connect` (a backend's one-phase search) for the peers that are not last resorts until
    /// `lastResortDelay` has passed, then for all of them until `deadline`. `connect`'s third
    /// argument says whether a later phase follows: a backend then only listens, rather than dial
    /// a device it merely knows of (a connect attempt pending in the controller can keep it from
    /// scanning, and so from hearing the last resort; seen on the rig).
    public func connectLastResortsLast(
        toAnyOf peers: [PeerIdentity], deadline: ContinuousClock.Instant,
        _ connect: @Sendable ([PeerIdentity], ContinuousClock.Instant, _ laterPhaseFollows: Bool) async throws(LinkError)
            -> (PeerIdentity, any Link)
    ) async throws(LinkError) -> (PeerIdentity, any Link) {
        let preferred = peers.filter { !Self.isLastResort($0) }
        guard preferred.count < peers.count, !preferred.isEmpty else { return try await connect(peers, deadline, false) }
        let firstPhase = min(deadline, ContinuousClock.now.advanced(by: Self.lastResortDelay))
        do throws(LinkError) {
            return try await connect(preferred, firstPhase, true)
        } catch {
            switch error {
            case .timeout, .peerNotFound: break
            default: throw error
            }
        }
        guard ContinuousClock.now < deadline else { throw .timeout }
        return try await connect(peers, deadline, false)
    }
}
