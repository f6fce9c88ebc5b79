import Synchronization
import Transport

/// The device an update talks to: the protocol's client, the link it currently serves, and how to
/// get a new link after the old one went (a lost connection, a reboot). The one owner of link loss
/// and reconnecting for a run: the client reports each loss of the link it serves (it drops late
/// events of earlier generations), `losses` counts them, `reconnect` makes and attaches the next
/// link. Sendable, so the transfer stage can reconnect from a child task while another awaits the
/// transfer.
///
/// Every link is checked before it is used: the protocol's GATT layout must be there.
final class DeviceConnection<Client: LinkClient>: Sendable {
    let client: Client
    let losses: LinkLossMonitor
    private let connector: any Connector
    /// Who the next link goes to and what it must carry: the device as first found, or what a
    /// protocol retargeted to (a bootloader under another address, the application after it).
    private let target: Mutex<Target>
    private let current: Mutex<any Link>
    /// The peer the current link goes to (one of the target's).
    private let currentPeer: Mutex<PeerIdentity>
    /// The deadline of the connect or reconnect that made the current link.
    private let currentDeadline: Mutex<ContinuousClock.Instant>
    /// How many losses the monitor had counted when the current link was attached: more than
    /// that means the current link is gone too.
    private let attachedAfterLosses = Mutex(0)
    private let clock: EngineClock

    private struct Target: Sendable {
        /// Where the device may answer, tried in turn (`Connector.connect(toAnyOf:)`).
        var peers: [PeerIdentity]
        var layout: any GATTLayout
    }

    private init(client: Client, losses: LinkLossMonitor, connector: any Connector, peers: [PeerIdentity],
                 peer: PeerIdentity, link: any Link, layout: any GATTLayout, clock: EngineClock,
                 deadline: ContinuousClock.Instant) {
        self.client = client
        self.clock = clock
        self.losses = losses
        self.connector = connector
        target = Mutex(Target(peers: peers, layout: layout))
        current = Mutex(link)
        currentPeer = Mutex(peer)
        currentDeadline = Mutex(deadline)
    }

    /// The link the client serves now.
    var link: any Link { current.withLock { $0 } }

    /// The peer the current link goes to.
    var peer: PeerIdentity { currentPeer.withLock { $0 } }
    /// Where a reconnect looks, in turn.
    var peers: [PeerIdentity] { target.withLock { $0.peers } }
    /// By when the device must have answered on the current link, where making a link proves
    /// nothing (a connectionless link, UDP: it is "up" whatever is at the other end): the deadline
    /// of the connect or reconnect that made it, so `--connect-timeout` bounds that first answer.
    var firstAnswerDeadline: ContinuousClock.Instant { currentDeadline.withLock { $0 } }

    /// What the device found at the next reconnect must offer.
    var layout: any GATTLayout { target.withLock { $0.layout } }

    /// Makes every later reconnect go to `peers` (in turn) and check `layout` there: the device
    /// comes back as something else (a bootloader under its own address, the application after it).
    func retarget(to peers: [PeerIdentity], layout: any GATTLayout) {
        target.withLock { $0 = Target(peers: peers, layout: layout) }
    }

    /// The losses counted when the current link was attached. Waiting for a loss beyond it
    /// returns at once when the current link has already gone.
    var lossesWhenAttached: Int { attachedAfterLosses.withLock { $0 } }

    /// Connects (retrying with capped backoff until `deadline`, real time), checks the GATT layout
    /// and starts the protocol's client on the link. Failures are `deviceUnreachable` (exit 9 when
    /// the device demands a secure link that could not be set up). `adopted`: a link already made
    /// to the device (to find out what it is), used as the first attempt.
    static func open(_ connector: any Connector, peers: [PeerIdentity], label: String, until deadline: ContinuousClock.Instant,
                     clock: EngineClock, layout: any GATTLayout,
                     client makeClient: (any Link) async throws(LinkError) -> Client,
                     adopting adopted: (PeerIdentity, any Link)? = nil,
                     updating: (file: String, protocol: UpdateProtocolName)? = nil,
                     log: @Sendable (String) -> Void) async throws(DFUError) -> DeviceConnection {
        let outcome: Result<DeviceConnection, ReconnectFailure> = await LinkAttempts.run(
            connector, peers: peers, until: deadline, clock: clock, layout: layout, verb: "connect", adopting: adopted, log: log
        ) { _, peer, link async throws(LinkError) in
            let client = try await makeClient(link)
            let losses = await LinkLossMonitor.watching(client.linkLosses, clock: clock)
            return DeviceConnection(client: client, losses: losses, connector: connector, peers: peers, peer: peer, link: link,
                                    layout: layout, clock: clock, deadline: deadline)
        }
        switch outcome {
        case .success(let connection): return connection
        case .failure(let failure): throw failure.connectError(label: label, layout: layout, updating: updating)
        }
    }

    /// Whether the current link was lost (and no new one attached since).
    var isLinkLost: Bool {
        get async { await losses.count > attachedAfterLosses.withLock { $0 } }
    }

    /// Why the current link went down. A request fails with `linkLost` as soon as the client sees
    /// the drop, and the client reports the loss in the same step, so the monitor has it or is
    /// about to: this waits for that record, bounded by `allowance` (the request deadline).
    func lossReason(within allowance: Duration) async -> DisconnectReason? {
        await losses.waitForLoss(beyond: attachedAfterLosses.withLock { $0 }, until: clock.reachableBy(allowance))
    }

    /// Connects again after the link was lost and hands the new link to the client (which
    /// subscribes again; a transfer in progress resumes from the device's offset). Returns the
    /// attempt that succeeded (1 = first), or why no link came before `deadline`. `willAttach`
    /// runs just before the session gets the link, with the attempt number, so a caller can
    /// expect the replies that follow.
    func reconnect(until deadline: ContinuousClock.Instant, log: @Sendable (String) -> Void,
                   willAttach: @Sendable (Int) -> Void = { _ in }) async -> Result<Int, ReconnectFailure> {
        // Every loss counted so far belongs to links before the one about to be made.
        let lossesSoFar = await losses.count
        let target = target.withLock { $0 }
        return await LinkAttempts.run(connector, peers: target.peers, until: deadline, clock: clock, layout: target.layout,
                                      verb: "reconnect", log: log) { attempt, peer, link async throws(LinkError) in
            willAttach(attempt)
            try await client.attach(link)
            current.withLock { $0 = link }
            currentPeer.withLock { $0 = peer }
            currentDeadline.withLock { $0 = deadline }
            attachedAfterLosses.withLock { $0 = lossesSoFar }
            return attempt
        }
    }

    /// Ends the client and the link. Safe to call more than once.
    func close() async {
        await client.close()
        await losses.stop()
        await link.disconnect()
    }
}
