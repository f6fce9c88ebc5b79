/// Opens links: the engine's way to reach a device, and to reach it again after it rebooted.
///
/// Each successful `connect` returns a NEW link whose generation is higher than every earlier one
/// from this connector, so events of an old link can be told apart. A device may refuse a second
/// connection while one is open; disconnect the old link first.
///
/// The deadline is real (continuous-clock) time, because it bounds how long the user waits.
public protocol Connector: Sendable {
    /// Connects to `peer` and discovers its services, waiting for it to become reachable (e.g. to
    /// advertise again after a reboot) until `deadline`. Throws `.timeout` when the deadline
    /// passes, `.peerNotFound` when the backend knows the device cannot be found, `.cancelled` when
    /// the task is cancelled.
    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link

    /// Connects to whichever of `peers` can be reached first (a device that answers under one of
    /// several addresses: an application or its bootloader); returns the peer reached and its
    /// link. By default the peers take turns (`connectTakingTurns`); a backend that can look for
    /// all of them at once does.
    func connect(toAnyOf peers: [PeerIdentity],
                 deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link)
}
