import Transport

/// Turning a connected, resolved device into a `BlueZLink`: watch it first, then acquire the write
/// fds of the expected write-without-response characteristics (their `mtu` is the ATT MTU the link
/// reports), falling back to the MTU property. Then the expected services' notifications are
/// switched on, with StartNotify: that is where a device that needs a more secure link says so
/// (its CCC refuses), before anything is written that it would drop. A bonded link is checked
/// too: a Just Works bond is refused by a device that requires authentication.
extension BlueZConnector {
    enum Opening: Sendable {
        case link(BlueZLink)
        /// Subscribing was refused for want of security (the ATT error): pair, then connect again.
        case needsSecurity(ATTError)
        case failed(LinkError)
    }

    func openLink(device: BlueZDeviceInfo, tree: BlueZObjectTree, peer: PeerIdentity,
                  generation: LinkGeneration, security progress: SecurityProgress) async -> Opening {
        let layout = tree.services(of: device.path)
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        let state = BlueZLinkState(generation: generation, devicePath: device.path, continuation: continuation)
        let store = client.store
        guard let observed = store.observe({ event in state.handle(event).map(store.removeObserver) }) else {
            state.end(.other("the D-Bus connection to bluetoothd was lost"))
            return .failed(.disconnected(.other("the D-Bus connection to bluetoothd was lost")))
        }
        guard state.setObserver(observed.id), observed.tree.device(at: device.path)?.connected == true else {
            store.removeObserver(observed.id)
            let reason = DisconnectReason.other("the device disconnected right after connecting")
            state.end(reason)
            return .failed(.disconnected(reason))
        }
        let gatt = BlueZGATTCalls(client: client, state: state)
        var acquiredMTU: Int?
        let eager = layout.filter { expectedServices.isEmpty || expectedServices.contains($0.id) }
            .flatMap(\.characteristics).filter { $0.properties.contains(.writeWithoutResponse) }
        for characteristic in eager {
            do throws(LinkError) {
                if let (socket, mtu) = try await gatt.acquire(characteristic, member: "AcquireWrite", notify: false) {
                    guard state.keep(socket, for: characteristic.id, notify: false) else {
                        return .failed(.disconnected(state.endReason ?? .other("the link ended")))
                    }
                    acquiredMTU = acquiredMTU ?? mtu
                } else {
                    state.markAcquireRefused(for: characteristic.id)
                    log("AcquireWrite refused on \(characteristic.id); writing with WriteValue(type: command)")
                }
            } catch {
                if let observer = state.end(.other("connect abandoned")) { store.removeObserver(observer) }
                return .failed(error)
            }
        }
        agent?.resetOutcome()
        let notifying = layout.filter { expectedServices.isEmpty || expectedServices.contains($0.id) }
            .flatMap(\.characteristics).filter { $0.flags.contains("notify") || $0.flags.contains("indicate") }
        for characteristic in notifying {
            do throws(LinkError) {
                try await gatt.startNotify(characteristic)
            } catch {
                if let observer = state.end(.other("connect abandoned")) { store.removeObserver(observer) }
                if case .rejected(_, let att) = error, att.asksForSecurity { return .needsSecurity(att) }
                return .failed(error)
            }
        }
        // BlueZ may have paired by itself while subscribing, through the default agent, which is
        // ours when it was the first registered (§9).
        let now = store.tree.device(at: device.path) ?? device
        let pairedWhileSubscribing = !device.paired && now.paired
        let pairedNow = progress.paired || pairedWhileSubscribing
        let authenticated = progress.paired ? progress.authenticated
            : pairedWhileSubscribing && agent?.gaveAuthenticatedAnswer == true ? true : nil
        let security = LinkSecurity(paired: now.paired, bonded: now.bonded, encrypted: now.paired,
                                    authenticated: authenticated, pairedNow: pairedNow)
        let propertyMTU = (tree.services(of: device.path) + store.tree.services(of: device.path))
            .flatMap(\.characteristics).compactMap(\.mtu).max()
        let mtu = acquiredMTU ?? propertyMTU ?? BlueZWriteCap.mtuRange.lowerBound
        if acquiredMTU == nil, propertyMTU == nil { log("BlueZ reports no MTU; assuming the minimum, 23") }
        let attMTU = BlueZWriteCap.clampedMTU(mtu)
        // Whole messages: EATT may reorder writes, and nothing over D-Bus says whether it is on.
        let parameters = LinkParameters(
            generation: generation, peer: peer, attMTU: attMTU,
            maxWriteWithoutResponse: BlueZWriteCap.maxWriteWithoutResponse(attMTU: attMTU, capForBlueZPeers: capWritesForBlueZPeers),
            writesAreWholeMessages: true, security: security)
        return .link(BlueZLink(parameters: parameters, services: layout, events: events, client: client, state: state))
    }
}
