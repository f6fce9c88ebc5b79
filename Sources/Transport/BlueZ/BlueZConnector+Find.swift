/// Finding the Device1 to connect to: the known object first, else discovery (bluez-dbus.md §2:
/// objects of unconnected devices vanish 30 s after they were last heard, and a rebooted device
/// may come back under a new address).
extension BlueZConnector {
    func find(_ plan: BlueZPeerMemory.SearchPlan, peer: PeerIdentity, halfway: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant) async throws(LinkError) -> BlueZDeviceInfo {
        // By address alone while there is no name or half the time is left; then by either.
        if let address = plan.address, plan.name == nil || ContinuousClock.now < halfway {
            if let device = client.store.tree.device(address: address, adapter: adapter.path) { return device }
            log("looking for \(PeerIdentity(address).redacted)")
            let until = plan.name == nil ? deadline : halfway
            if let device = try await discover(until: until, filter: BlueZScanFilter(), where: { $0.address == address }) {
                return device
            }
        }
        guard let name = plan.name else { throw .timeout }
        if let address = plan.address {
            log("\(PeerIdentity(address).redacted) did not come back; looking for it or a device named \"\(name)\" with the expected service")
        }
        return try await findByName(name, or: plan.address, peer: peer, deadline: deadline)
    }

    /// A heard (RSSI present) or connected device with this name that offers an expected service,
    /// or the device with `address` when that one comes back after all.
    private func findByName(_ name: String, or address: String?, peer: PeerIdentity,
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
    private func discover(until end: ContinuousClock.Instant, filter: BlueZScanFilter,
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
        var found = session.initialTree.devices(of: adapter.path).first(where: heard)
        if found == nil {
            for await device in session.updates where heard(device) {
                found = device
                break
            }
        }
        await session.stop()
        if Task.isCancelled { throw .cancelled }
        if found == nil, let failure = session.failure { throw .backend(failure.description) }
        return found
    }
}
