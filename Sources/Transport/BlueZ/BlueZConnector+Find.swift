import Synchronization
import Transport

/// Finding the Device1 to connect to: the known object first, else discovery (bluez-dbus.md §2:
/// objects of unconnected devices vanish 30 s after they were last heard, and a rebooted device
/// may come back under a new address).
extension BlueZConnector {
    /// The device to dial, and when its Connect must give up if sooner than usual.
    struct Found: Sendable {
        var device: BlueZDeviceInfo
        var connectBy: ContinuousClock.Instant?
    }

    func find(_ plan: BlueZPeerMemory.SearchPlan, for target: BlueZPeerTarget, halfway: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant) async throws(LinkError) -> Found {
        if case .name(let name) = target, let address = plan.address {
            return try await findNamePeer(name, lastAddress: address, halfway: halfway, deadline: deadline)
        }
        // By address alone while there is no name or half the time is left; then by either.
        if let address = plan.address, plan.name == nil || ContinuousClock.now < halfway {
            if let device = client.store.tree.device(address: address, adapter: adapter.path) { return Found(device: device) }
            log("looking for \(PeerIdentity(address).redacted)")
            let until = plan.name == nil ? deadline : halfway
            if let device = try await discover(until: until, filter: BlueZScanFilter(), where: { $0.address == address }) {
                return Found(device: device)
            }
        }
        guard let name = plan.name else { throw .timeout }
        if case .soleName = target {
            let device = try await findByName(name, or: nil, deadline: deadline)
            try await checkSole(target, device)
            return Found(device: device)
        }
        if let address = plan.address {
            log("\(PeerIdentity(address).redacted) did not come back; looking for it or a device named \"\(name)\" with the expected service")
        }
        return Found(device: try await findByName(name, or: plan.address, deadline: deadline))
    }

    /// A `name:` peer reached before, at `lastAddress`. While our link there is up, that device. Once
    /// it ended (a reboot), the old object proves nothing (`BlueZComeback`): discover until half the
    /// time is gone and take whichever shows it is back first, the old address heard again or a
    /// device with the name and an expected service; never dial the old address on its word alone.
    /// Should bluetoothd still report the old address connected after a grace of 5 s, it kept the
    /// link and that is used. Should nothing be heard by half time, the old address is tried once
    /// (a device bluetoothd knows is not always reported again, seen on the rig), then the search
    /// by name goes on until the deadline.
    private func findNamePeer(_ name: String, lastAddress: String, halfway: ContinuousClock.Instant,
                              deadline: ContinuousClock.Instant) async throws(LinkError) -> Found {
        if let last = client.store.tree.device(address: lastAddress, adapter: adapter.path), !lastLinkEnded(at: last.path) {
            return Found(device: last)
        }
        if ContinuousClock.now < halfway {
            log("looking for \(PeerIdentity(lastAddress).redacted) or a device named \"\(name)\" with the expected service")
            if let device = try await awaitComeback(name: name, lastAddress: lastAddress, until: halfway) {
                return Found(device: device)
            }
            if let last = client.store.tree.device(address: lastAddress, adapter: adapter.path) {
                log("nothing heard from \(PeerIdentity(lastAddress).redacted) nor \"\(name)\"; trying its last address once")
                return Found(device: last, connectBy: .now)
            }
        }
        return Found(device: try await findByName(name, or: lastAddress, deadline: deadline))
    }

    /// Discovers (unfiltered: the old address need not advertise the service) until `end` or until
    /// a device shows the peer is back; nil when none did. While the old address still claims a
    /// connection, waits at most 5 s for bluetoothd's verdict: if it is still connected then,
    /// bluetoothd kept the link, and that device is the answer.
    private func awaitComeback(name: String, lastAddress: String,
                               until end: ContinuousClock.Instant) async throws(LinkError) -> BlueZDeviceInfo? {
        let session: BlueZScanSession
        do throws(BlueZError) {
            session = try await BlueZScanSession.start(client: client, adapter: adapter, filter: BlueZScanFilter(),
                                                       deadline: end, reportingDevices: false)
        } catch {
            throw .backend(error.description)
        }
        let watch = ComebackWatch(BlueZComeback(lastAddress: lastAddress, name: name, services: expectedServices,
                                                adapterPath: adapter.path, lostPaths: pathsOfEndedLinks(),
                                                tree: session.initialTree))
        let store = client.store
        let adapterPath = adapter.path
        let adapterGone: @Sendable (BlueZObjectTree) -> Bool = { tree in !tree.adapters.contains { $0.path == adapterPath } }
        var outcome = BlueZTreeStore.WaitOutcome.timedOut
        var found: BlueZDeviceInfo?
        if watch.comeback.lastAddressClaimsConnection(in: store.tree) {
            let grace = min(end, ContinuousClock.now.advanced(by: Self.verdictGrace))
            outcome = await store.wait(until: grace) { tree in
                watch.look(at: tree) || !watch.comeback.lastAddressClaimsConnection(in: tree) || adapterGone(tree)
            }
            found = watch.comeback.found
            if found == nil, case .timedOut = outcome, grace < end,
               let kept = store.tree.device(address: lastAddress, adapter: adapterPath), kept.connected {
                log("\(PeerIdentity(lastAddress).redacted) is still connected; bluetoothd kept the link")
                keptConnection(at: kept.path)
                found = kept
            }
        }
        switch outcome {
        case .satisfied, .timedOut:
            // The verdict came (or there was none to wait for): only an advertisement will do now.
            if found == nil, ContinuousClock.now < end, !adapterGone(store.tree) {
                outcome = await store.wait(until: end) { tree in watch.look(at: tree) || adapterGone(tree) }
                found = watch.comeback.found
            }
        case .cancelled, .busLost:
            break
        }
        await session.stop()
        if Task.isCancelled { throw .cancelled }
        if let failure = session.failure { throw .backend(failure.description) }
        if case .busLost = outcome {
            throw .backend(BlueZError.busUnavailable("the connection to the system bus was lost").description)
        }
        return found
    }

    /// How long bluetoothd may take to report that a link of ours that ended is down.
    static let verdictGrace = Duration.seconds(5)

    /// A heard (RSSI present) or connected device with this name that offers an expected service,
    /// or the device with `address` when that one comes back after all.
    /// A `sole-name:` peer found as `device`: refused when another device advertises the same name
    /// with an expected service (two bootloaders under `DfuTarg` cannot be told apart). The first
    /// one heard ends a discovery at once, so dfu listens `soleNameSettle` longer for a second one.
    /// `heardSince`: devices our discoveries heard from then on count too (an earlier phase of
    /// the same search).
    func checkSole(_ target: BlueZPeerTarget, _ device: BlueZDeviceInfo,
                   heardSince: ContinuousClock.Instant? = nil) async throws(LinkError) {
        guard case .soleName(let name) = target else { return }
        let services = expectedServices
        let sharesTheName: @Sendable (BlueZDeviceInfo) -> Bool = { other in
            other.address != device.address && other.name == name
                && (services.isEmpty || other.services.contains(where: services.contains))
        }
        let earlier = heardSince.map(devicesHeard(since:)) ?? []
        let heardNow = Set((client.store.tree.devices(of: adapter.path).filter { $0.rssi != nil } + earlier)
            .filter(sharesTheName).map(\.path)).count
        // (Read before listening: stopping a discovery clears the RSSI of what it heard.)
        let another = try await discover(until: ContinuousClock.now.advanced(by: Self.soleNameSettle),
                                         filter: BlueZScanFilter(), where: sharesTheName)
        let sharing = max(heardNow, another == nil ? 0 : 1)
        guard sharing == 0 else { throw .ambiguous(PeerIdentity("sole-name:" + name), count: sharing + 1) }
    }

    /// How long a device found by a `sole-name:` peer is listened past for another with that name:
    /// a bootloader advertises every 25 ms (nordic-secure-dfu.md §1.1).
    static var soleNameSettle: Duration { .milliseconds(1500) }

    private func findByName(_ name: String, or address: String?,
                            deadline: ContinuousClock.Instant) async throws(LinkError) -> BlueZDeviceInfo {
        let matches: @Sendable (BlueZDeviceInfo) -> Bool = { [expectedServices] device in
            device.address == address || (device.name == name
                && (expectedServices.isEmpty || device.services.contains(where: expectedServices.contains)))
        }
        if let known = client.store.tree.devices(of: adapter.path)
            .first(where: { matches($0) && ($0.rssi != nil || $0.connected) }) {
            return known
        }
        // Unfiltered when the old address may come back: it need not advertise the service.
        let filter = BlueZScanFilter(services: address == nil ? expectedServices : [])
        guard let device = try await discover(until: deadline, filter: filter, where: matches) else {
            throw .timeout
        }
        return device
    }

    /// Runs discovery until a heard device satisfies `accept` (stopped at once), or `until`.
    /// Returns nil when time ran out.
    func discover(until end: ContinuousClock.Instant, filter: BlueZScanFilter,
                          where accept: @escaping @Sendable (BlueZDeviceInfo) -> Bool) async throws(LinkError)
        -> BlueZDeviceInfo? {
        let session: BlueZScanSession
        do throws(BlueZError) {
            session = try await BlueZScanSession.start(client: client, adapter: adapter, filter: filter, deadline: end)
        } catch {
            throw .backend(error.description)
        }
        let heard: @Sendable (BlueZDeviceInfo) -> Bool = { device in
            device.rssi != nil && filter.matches(device.discovered) && accept(device)
        }
        let initial = session.initialTree.devices(of: adapter.path)
        initial.forEach(noteHeard)
        var found = initial.first(where: heard)
        if found == nil {
            for await device in session.updates {
                noteHeard(device)
                if heard(device) {
                    found = device
                    break
                }
            }
        }
        await session.stop()
        if Task.isCancelled { throw .cancelled }
        if found == nil, let failure = session.failure { throw .backend(failure.description) }
        return found
    }
}

/// A `BlueZComeback` that the tree store's wait predicates (run one at a time, in tree order) can
/// update.
private final class ComebackWatch: Sendable {
    private let state: Mutex<BlueZComeback>

    init(_ comeback: BlueZComeback) {
        state = Mutex(comeback)
    }

    var comeback: BlueZComeback { state.withLock { $0 } }

    func look(at tree: BlueZObjectTree) -> Bool {
        state.withLock { $0.look(at: tree) }
    }
}
