/// The in-process `Connector`: a registry of memory peripherals, the "air" they advertise in.
///
/// A registered peripheral is connectable while it advertises and has no connection (one central
/// at a time, as an SMP target allows). A dropped connection counts until the peripheral's
/// `handleDisconnect` for it has returned: a device handles its disconnection before it can be
/// connected again, so a central that reconnects at once never overtakes it. To model a reboot
/// the device stops advertising, drops its session, and advertises again when "booted":
///
///     await connector.setAdvertising(false, for: id)
///     await session.disconnect()
///     … boot time on the LinkClock …
///     await connector.setAdvertising(true, for: id)
///
/// A peer is the identity a peripheral was registered as, or `name:NAME` for whichever advertises
/// that name now, or `sole-name:NAME` for the one device advertising it, refused as ambiguous when
/// several do (`MemoryConnector+Names.swift`).
///
/// Each connection gets the next generation of this connector, starting at 1. A connector made with
/// a `MemoryAdapter` makes every link share that adapter's one radio; without one, each link has a
/// radio of its own.
public actor MemoryConnector: Connector {
    struct Entry {
        let peripheral: any MemoryPeripheral
        let profile: LinkProfile
        var advertising: Bool
        /// The name it advertises; nil: none a `name:` peer can find.
        var name: String?
        var connected: LinkGeneration?
        var pendingFaults: [LinkFault] = []

        var connectable: Bool { advertising && connected == nil }
    }

    private struct Waiter {
        let id: UInt64
        let peers: [PeerIdentity]
        let continuation: CheckedContinuation<Result<(PeerIdentity, PeerIdentity, LinkGeneration), LinkError>, Never>
        let timer: Task<Void, Never>
    }

    public nonisolated let clock: LinkClock
    /// The central adapter whose radio this connector's links share; nil = one radio per link.
    public nonisolated let adapter: MemoryAdapter?
    var entries: [PeerIdentity: Entry] = [:]
    private var waiters: [Waiter] = []
    private var lastGeneration = LinkGeneration(0)
    private var lastWaiterID: UInt64 = 0

    public init(clock: LinkClock, adapter: MemoryAdapter? = nil) {
        self.clock = clock
        self.adapter = adapter
    }

    /// Makes `peripheral` reachable as `peer` with `profile`, advertising `name` if given.
    /// Registering a peer again replaces it (a connection already open stays as it is).
    public func register(_ peripheral: any MemoryPeripheral, as peer: PeerIdentity, profile: LinkProfile,
                         advertising: Bool = true, name: String? = nil) {
        let connected = entries[peer]?.connected
        entries[peer] = Entry(peripheral: peripheral, profile: profile, advertising: advertising, name: name,
                              connected: connected)
        wakeWaiters()
    }

    /// Starts or stops the peripheral's advertising (under `name`, when given); a waiting `connect`
    /// succeeds once it is connectable.
    public func setAdvertising(_ advertising: Bool, for peer: PeerIdentity, name: String? = nil) {
        entries[peer]?.advertising = advertising
        if let name { entries[peer]?.name = name }
        wakeWaiters()
    }

    /// Arms `fault` on the NEXT connection to `peer` only (e.g. drop the first attempt, let the
    /// reconnection succeed).
    public func scheduleFault(_ fault: LinkFault, for peer: PeerIdentity) {
        entries[peer]?.pendingFaults.append(fault)
    }

    /// The generation of the newest connection this connector made (0 before the first).
    public var latestGeneration: LinkGeneration { lastGeneration }

    public func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        try await connect(toAnyOf: [peer], deadline: deadline).1
    }

    /// Whichever of `peers` is connectable first; registered identities and names alike, a
    /// last-resort peer only after the others had their time (`connectLastResortsLast`).
    public func connect(toAnyOf peers: [PeerIdentity],
                        deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        try await connectLastResortsLast(toAnyOf: peers, deadline: deadline) { peers, deadline, _ async throws(LinkError) in
            try await connectOnce(toAnyOf: peers, deadline: deadline)
        }
    }

    private func connectOnce(toAnyOf peers: [PeerIdentity],
                             deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        guard peers.contains(where: canEverMatch) else { throw .peerNotFound(peers.first ?? PeerIdentity("")) }
        let (requested, peer, generation): (PeerIdentity, PeerIdentity, LinkGeneration)
        if let found = try connectableNow(peers) {
            (requested, peer, generation) = (found.requested, found.entry, reserve(found.entry))
        } else {
            (requested, peer, generation) = try await waitUntilConnectable(peers, deadline: deadline).get()
        }
        guard let reserved = entries[peer] else { throw .peerNotFound(peer) }
        let faults = reserved.pendingFaults
        entries[peer]?.pendingFaults = []
        let link = await MemoryLink.connect(to: reserved.peripheral, as: peer, profile: reserved.profile, clock: clock,
                                            adapter: adapter, generation: generation, faults: faults) { [weak self] generation in
            await self?.linkEnded(peer, generation)
        }
        return (requested, link)
    }

    /// Marks `peer` connected under a new generation before any suspension, so two callers cannot
    /// both take it.
    private func reserve(_ peer: PeerIdentity) -> LinkGeneration {
        lastGeneration = lastGeneration.next
        entries[peer]?.connected = lastGeneration
        return lastGeneration
    }

    private func waitUntilConnectable(_ peers: [PeerIdentity], deadline: ContinuousClock.Instant) async
        -> Result<(PeerIdentity, PeerIdentity, LinkGeneration), LinkError> {
        lastWaiterID += 1
        let id = lastWaiterID
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { return continuation.resume(returning: .failure(.cancelled)) }
                let timer = Task {
                    do {
                        try await Task.sleep(until: deadline, clock: .continuous)
                    } catch {
                        return
                    }
                    self.finishWaiter(id, with: .failure(.timeout))
                }
                waiters.append(Waiter(id: id, peers: peers, continuation: continuation, timer: timer))
            }
        } onCancel: {
            Task { await self.finishWaiter(id, with: .failure(.cancelled)) }
        }
    }

    private func finishWaiter(_ id: UInt64, with result: Result<(PeerIdentity, PeerIdentity, LinkGeneration), LinkError>) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.timer.cancel()
        waiter.continuation.resume(returning: result)
    }

    /// Hands each peer that became connectable to its longest-waiting caller (or tells a caller
    /// that its `sole-name:` peer is now ambiguous).
    private func wakeWaiters() {
        for waiter in waiters {
            do throws(LinkError) {
                guard let found = try connectableNow(waiter.peers) else { continue }
                finishWaiter(waiter.id, with: .success((found.requested, found.entry, reserve(found.entry))))
            } catch {
                finishWaiter(waiter.id, with: .failure(error))
            }
        }
    }

    private func linkEnded(_ peer: PeerIdentity, _ generation: LinkGeneration) {
        guard entries[peer]?.connected == generation else { return }
        entries[peer]?.connected = nil
        wakeWaiters()
    }
}
