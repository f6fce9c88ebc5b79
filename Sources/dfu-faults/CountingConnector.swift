import DFUCore
import Transport

/// A `Connector` that hands out the inner connector's links wrapped in a `CountingLink`, so every
/// connection of a run — the first, each reconnection, the rerun — adds to one `UploadCounter`.
/// `onRequest` hears of each SMP request as it is handed to the device (`CountingLink`).
struct CountingConnector: Connector {
    let inner: any Connector
    let counter: UploadCounter
    var onRequest: (@Sendable (SMPHeader) -> Void)?

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        CountingLink(try await inner.connect(to: peer, deadline: deadline), counter: counter, onRequest: onRequest)
    }

    /// The inner connector's own search for several peers (the memory connector looks for all at
    /// once, as `dfu flash --device sim:` does), not the default's turns of 2 s of real time each:
    /// 40 s of model time per turn at the campaign's time scale.
    func connect(toAnyOf peers: [PeerIdentity],
                 deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        let (peer, link) = try await inner.connect(toAnyOf: peers, deadline: deadline)
        return (peer, CountingLink(link, counter: counter, onRequest: onRequest))
    }
}
