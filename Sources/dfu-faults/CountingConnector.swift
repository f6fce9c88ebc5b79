import Transport

/// A `Connector` that hands out the inner connector's links wrapped in a `CountingLink`, so every
/// connection of a run — the first, each reconnection, the rerun — adds to one `UploadCounter`.
struct CountingConnector: Connector {
    let inner: any Connector
    let counter: UploadCounter

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        CountingLink(try await inner.connect(to: peer, deadline: deadline), counter: counter)
    }
}
