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
