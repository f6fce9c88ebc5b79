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
/// Each connection gets the next generation of this connector, starting at 1. A connector made with
/// a `MemoryAdapter` makes every link share that adapter's one radio; without one, each link has a
/// radio of its own.
public actor MemoryConnector: Connector {
    private struct Entry {
        let peripheral: any MemoryPeripheral
        let profile: LinkProfile
        var advertising: Bool
        var connected: LinkGeneration?
        var pendingFaults: [LinkFault] = []

        var connectable: Bool { advertising && connected == nil }
    }

    private struct Waiter {
        let id: UInt64
        let peer: PeerIdentity
        let continuation: CheckedContinuation<Result<LinkGeneration, LinkError>, Never>
        let timer: Task<Void, Never>
    }

    public nonisolated let clock: LinkClock
    /// The central adapter whose radio this connector's links share; nil = one radio per link.
    public nonisolated let adapter: MemoryAdapter?
    private var entries: [PeerIdentity: Entry] = [:]
    private var waiters: [Waiter] = []
    private var lastGeneration = LinkGeneration(0)
    private var lastWaiterID: UInt64 = 0

    public init(clock: LinkClock, adapter: MemoryAdapter? = nil) {
        self.clock = clock
        self.adapter = adapter
    }

    /// Makes `peripheral` reachable as `peer` with `profile`. Registering a peer again replaces it
    /// (a connection already open stays as it is).
    public func register(_ peripheral: any MemoryPeripheral, as peer: PeerIdentity, profile: LinkProfile,
                         advertising: Bool = true) {
        let connected = entries[peer]?.connected
        entries[peer] = Entry(peripheral: peripheral, profile: profile, advertising: advertising, connected: connected)
        wakeWaiters(for: peer)
    }

    /// Starts or stops the peripheral's advertising; a waiting `connect` succeeds once it is connectable.
    public func setAdvertising(_ advertising: Bool, for peer: PeerIdentity) {
        entries[peer]?.advertising = advertising
        wakeWaiters(for: peer)
    }

    /// Arms `fault` on the NEXT connection to `peer` only (e.g. drop the first attempt, let the
    /// reconnection succeed).
    public func scheduleFault(_ fault: LinkFault, for peer: PeerIdentity) {
        entries[peer]?.pendingFaults.append(fault)
    }

    /// The generation of the newest connection this connector made (0 before the first).
    public var latestGeneration: LinkGeneration { lastGeneration }

    public func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        guard let entry = entries[peer] else { throw .peerNotFound(peer) }
        let generation: LinkGeneration
        if entry.connectable {
            generation = reserve(peer)
        } else {
            generation = try await waitUntilConnectable(peer, deadline: deadline).get()
        }
        guard let reserved = entries[peer] else { throw .peerNotFound(peer) }
        let faults = reserved.pendingFaults
        entries[peer]?.pendingFaults = []
        return await MemoryLink.connect(to: reserved.peripheral, as: peer, profile: reserved.profile, clock: clock,
                                        adapter: adapter, generation: generation, faults: faults) { [weak self] generation in
            await self?.linkEnded(peer, generation)
        }
    }

    /// Marks `peer` connected under a new generation before any suspension, so two callers cannot
    /// both take it.
    private func reserve(_ peer: PeerIdentity) -> LinkGeneration {
        lastGeneration = lastGeneration.next
        entries[peer]?.connected = lastGeneration
        return lastGeneration
    }

    private func waitUntilConnectable(_ peer: PeerIdentity,
                                      deadline: ContinuousClock.Instant) async -> Result<LinkGeneration, LinkError> {
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
                waiters.append(Waiter(id: id, peer: peer, continuation: continuation, timer: timer))
            }
        } onCancel: {
            Task { await self.finishWaiter(id, with: .failure(.cancelled)) }
        }
    }

    private func finishWaiter(_ id: UInt64, with result: Result<LinkGeneration, LinkError>) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.timer.cancel()
        waiter.continuation.resume(returning: result)
    }

    /// Hands a connectable peer to its longest-waiting caller.
    private func wakeWaiters(for peer: PeerIdentity) {
        guard entries[peer]?.connectable == true,
              let waiter = waiters.first(where: { $0.peer == peer }) else { return }
        finishWaiter(waiter.id, with: .success(reserve(peer)))
    }

    private func linkEnded(_ peer: PeerIdentity, _ generation: LinkGeneration) {
        guard entries[peer]?.connected == generation else { return }
        entries[peer]?.connected = nil
        wakeWaiters(for: peer)
    }
}
