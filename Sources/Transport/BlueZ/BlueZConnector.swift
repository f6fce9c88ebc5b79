import Synchronization
import Transport

/// `Connector` over BlueZ. `PeerIdentity` forms: "AA:BB:CC:DD:EE:FF" (any case) or "name:NAME".
/// connect(): find the Device1 (known object, else discovery filtered by `expecting` services until
/// the deadline, stopped on match), Connect with capped backoff on `le-connection-abort-by-local`
/// and friends and on "Operation already in progress", wait for ServicesResolved (or Connected=false
/// or InterfacesRemoved), look services/characteristics up by UUID (paths change on every
/// reconnect), read the MTU, and return a `BlueZLink` with a new, higher generation.
/// After a device rebooted it is found again by its stored address, or — if that address does not
/// come back before half the deadline — by name + expected service under a new address. A `name:`
/// peer is taken wherever it is heard first, at its last address or under a new one: the old
/// object's Connected=true, stale until bluetoothd's Connected=false, is no proof it is there
/// (`BlueZComeback`).
public final class BlueZConnector: Connector {
    /// The services the caller needs (the SMP service).
    public let expectedServices: [ServiceID]
    /// Whether writes without response are capped at 510 bytes (BlueZ ≤ 5.68 peers drop longer
    /// ones silently, bluez-dbus.md §8); else at 512.
    public let capWritesForBlueZPeers: Bool
    /// How a device that demands a secure link is paired (`BlueZConnector+Pairing`).
    let pairing: BlueZPairing
    /// Our registered agent; nil when `pairing` asks for none.
    let agent: BlueZAgent?
    /// Shared with the other connectors on this adapter: one Connect in flight at a time.
    let connectGate: BlueZConnectGate?
    let client: BlueZClient
    let adapter: BlueZAdapterInfo
    let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var lastGeneration = LinkGeneration(0)
        /// Where each peer was reached, for the next connect to it.
        var memory = BlueZPeerMemory()
        /// The newest link to each device path, to tell a leftover connection from one that has
        /// just dropped while bluetoothd has not said so yet.
        var lastLinks: [String: BlueZLinkState] = [:]
        /// Every device our discoveries heard, by path: the latest snapshot with its RSSI, and when.
        var heard: [String: (device: BlueZDeviceInfo, at: ContinuousClock.Instant)] = [:]
    }

    init(client: BlueZClient, adapter: BlueZAdapterInfo, expecting services: [ServiceID],
         capWritesForBlueZPeers: Bool, pairing: BlueZPairing = .none, agent: BlueZAgent? = nil,
         connectGate: BlueZConnectGate? = nil, log: @escaping @Sendable (String) -> Void) {
        self.client = client
        self.connectGate = connectGate
        self.pairing = pairing
        self.agent = agent
        self.adapter = adapter
        self.expectedServices = services
        self.capWritesForBlueZPeers = capWritesForBlueZPeers
        self.log = log
    }

    /// The generation of the newest link this connector made (0 before the first).
    public var latestGeneration: LinkGeneration { state.withLock { $0.lastGeneration } }

    public func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        try await connect(to: peer, deadline: deadline, heard: nil)
    }

    /// `heard`: the peer's device, just heard by a discovery of the caller's that has since stopped.
    /// The first attempt dials it as it is: stopping that discovery cleared its RSSI, so looking
    /// for it again would wait for a new report, and a controller that reports an advertiser once
    /// per scan start may lose every later one (the rig: the bootloader went unfound for a whole
    /// minute after it had been heard).
    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant,
                 heard: BlueZDeviceInfo?) async throws(LinkError) -> any Link {
        if Task.isCancelled { throw .cancelled }
        var heard = heard
        // Moved on by the time spent waiting for the adapter's turn (`establish`).
        var deadline = deadline
        guard let target = BlueZPeerTarget(peer) else { throw .peerNotFound(peer) }
        let start = ContinuousClock.now
        // By address until half the time is gone, then also by name + service (a new address).
        let halfway = start.advanced(by: start.duration(to: deadline) / 2)
        var backoff = BlueZBackoff()
        var security = SecurityProgress()
        var stuck = StuckConnects()
        while true {
            if Task.isCancelled { throw .cancelled }
            guard ContinuousClock.now < deadline else { throw .timeout }
            let plan = plan(for: target)
            let found: Found
            if let device = heard {
                heard = nil
                found = Found(device: device)
            } else {
                found = try await find(plan, for: target, halfway: halfway, deadline: deadline)
            }
            let device = found.device
            agent?.allow(device.path)
            var connectBy = found.connectBy ?? deadline
            if found.connectBy == nil, plan.address != nil, plan.name != nil, ContinuousClock.now < halfway {
                connectBy = halfway
            }
            if pairing.pairsBeforeUse, !device.paired, !security.paired {
                try await pair(device, because: nil, progress: &security, deadline: deadline)
                continue
            }
            let outcome = try await establish(device, connectBy: connectBy, deadline: &deadline)
            if case .stuck = outcome {} else { stuck.inARow = 0 }
            switch outcome {
            case .ready(let tree):
                let current = tree.device(at: device.path) ?? device
                let generation = reserveGeneration()
                switch await openLink(device: current, tree: tree, peer: peer, generation: generation, security: security) {
                case .link(let link):
                    remember(device, reachedFor: target, link: link.state)
                    log("connected to \(PeerIdentity(device.address).redacted) (\(generation), ATT MTU \(link.parameters.attMTU), writes ≤ \(link.parameters.maxWriteWithoutResponse) bytes\(Self.securityNote(link.parameters.security)))")
                    return link
                case .needsSecurity(let error):
                    try await pair(current, because: error, progress: &security, deadline: deadline)
                    continue
                case .failed(.disconnected(let reason)):
                    log("the link dropped while it was being set up (\(reason)); retrying")
                case .failed(let error):
                    await abort(device)
                    throw error
                }
            case .retry(let reason):
                log("connect to \(PeerIdentity(device.address).redacted) failed (\(reason)); retrying")
            case .vanished:
                log("\(PeerIdentity(device.address).redacted) vanished from bluetoothd; looking for it again")
                continue
            case .staleBond(let reason):
                if try await staleBond(device, reason: reason, progress: &security) { continue }
            case .stuck(let reason):
                if try await unstick(device, reason: reason, count: &stuck) { continue }
            }
            let pause = backoff.pause(now: .now, deadline: deadline)
            do {
                try await Task.sleep(for: pause)
            } catch {
                throw .cancelled
            }
        }
    }

    func plan(for target: BlueZPeerTarget) -> BlueZPeerMemory.SearchPlan {
        state.withLock { $0.memory.plan(for: target) }
    }

    /// Records how a peer was reached, for the next `connect` to it.
    private func remember(_ device: BlueZDeviceInfo, reachedFor target: BlueZPeerTarget, link: BlueZLinkState) {
        state.withLock { state in
            state.lastLinks[device.path] = link
            state.memory.record(target, reachedAt: device.address, name: device.name)
        }
    }

    /// Whether our newest link to `path` has ended (a hang-up on its fd often comes before
    /// bluetoothd's Connected=false).
    func lastLinkEnded(at path: String) -> Bool {
        state.withLock { $0.lastLinks[path]?.endReason != nil }
    }

    /// The device paths whose newest link of ours has ended.
    func pathsOfEndedLinks() -> Set<String> {
        state.withLock { Set($0.lastLinks.filter { $0.value.endReason != nil }.keys) }
    }

    /// bluetoothd still reports `path` connected well after our link to it ended: it kept the
    /// link (the next Connect is an instant success), so that ended link no longer makes its
    /// Connected=true suspect.
    func keptConnection(at path: String) {
        state.withLock { state in
            if state.lastLinks[path]?.endReason != nil { state.lastLinks[path] = nil }
        }
    }

    /// A device one of our discoveries heard (its RSSI set). Stopping a discovery clears the RSSI
    /// of what it heard, and a controller that reports an advertiser once per scan start may not
    /// report it to the next discovery at all (the rig), so a search in phases keeps what an
    /// earlier phase heard here.
    func noteHeard(_ device: BlueZDeviceInfo) {
        guard device.rssi != nil else { return }
        state.withLock { $0.heard[device.path] = (device, .now) }
    }

    /// The devices our discoveries heard at `since` or later, on our adapter.
    func devicesHeard(since: ContinuousClock.Instant) -> [BlueZDeviceInfo] {
        state.withLock { state in
            state.heard.values.filter { $0.at >= since && $0.device.adapterPath == adapter.path }.map(\.device)
        }
    }

    /// The next generation, strictly higher than every earlier one.
    func reserveGeneration() -> LinkGeneration {
        state.withLock { state in
            state.lastGeneration = state.lastGeneration.next
            return state.lastGeneration
        }
    }
}
