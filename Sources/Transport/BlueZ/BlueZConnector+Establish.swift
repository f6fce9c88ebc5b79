import DBusBinding
import Transport

/// Connecting a found device and waiting until its GATT database is usable (bluez-dbus.md §1.3, §2):
/// Connect replies when the ATT channel is up, before discovery; ServicesResolved flips later, or
/// Connected=false / InterfacesRemoved say it never will.
extension BlueZConnector {
    enum Establishment: Sendable {
        /// Connected with services resolved (and the expected ones exported); the tree at that moment.
        case ready(BlueZObjectTree)
        /// Worth another attempt after a pause.
        case retry(String)
        /// The Device1 object is gone: find the device again.
        case vanished
        /// A bonded device whose link came up and fell before it was usable: the signature of a
        /// device that lost its bond (`BlueZStaleBondWatch`); worth another attempt, once.
        case staleBond(String)
        /// Connect refused with `le-connection-abort-by-local` or InProgress: bluetoothd's state
        /// for the device may be stuck (`BlueZConnector+StuckConnect`).
        case stuck(String)

        /// Why another attempt is worth it, for the two outcomes that retry.
        var retryReason: String? {
            switch self {
            case .retry(let reason), .stuck(let reason): return reason
            default: return nil
            }
        }
    }

    /// `connectBy` bounds the Connect call (at least 5 s, at most the deadline): while a name
    /// search is still to come at half time, a Connect to an address that never returns must not
    /// use up the rest. The time spent waiting for the adapter's turn (`connectGate`) is not the
    /// device's: `deadline` (the caller's too) and `connectBy` move on by it, so a device queued
    /// behind others gets the whole connect timeout once its turn comes.
    func establish(_ device: BlueZDeviceInfo, connectBy: ContinuousClock.Instant,
                   deadline: inout ContinuousClock.Instant) async throws(LinkError) -> Establishment {
        var device = device
        var connectBy = connectBy
        // Set when bluetoothd made the link without reporting it: the Connected reports seen so far.
        var unreported: Int?
        if device.connected, lastLinkEnded(at: device.path) {
            // Our link to it just ended: wait (≤ 5 s) for bluetoothd to report the disconnection
            // rather than mistake the old connection for a usable one.
            let path = device.path
            let grace = min(deadline, ContinuousClock.now.advanced(by: Self.verdictGrace))
            if case .satisfied(let tree) = await client.store.wait(until: grace, for: { $0.device(at: path)?.connected != true }) {
                guard let now = tree.device(at: path) else { return .vanished }
                device = now
            }
        }
        if device.connected {
            log("\(PeerIdentity(device.address).redacted) is already connected; not calling Connect")
        } else {
            let watch = device.paired ? BlueZStaleBondWatch(store: client.store, path: device.path) : nil
            defer { watch?.stop() }
            await releaseNotifySessions(of: device)
            if let connectGate {
                let queued = ContinuousClock.now
                await connectGate.gate.enter()
                let waited = queued.duration(to: .now)
                deadline = deadline.advanced(by: waited)
                connectBy = connectBy.advanced(by: waited)
                if waited >= .seconds(1) {
                    log("waited \(Int(waited.seconds.rounded())) s for the adapter's turn to connect")
                }
            }
            defer { connectGate?.gate.leave() }
            let now = ContinuousClock.now
            let timeout = min(max(now.duration(to: connectBy), .seconds(5)), max(now.duration(to: deadline), .seconds(1)))
            do throws(DBusError) {
                _ = try await client.call(device.path, BlueZNames.device, "Connect", timeout: timeout)
                switch await connectedShowsUp(device, deadline: deadline) {
                case .shown: break
                case .unreported(let reports): unreported = reports
                case .failed(let outcome): return outcome
                }
            } catch {
                let outcome = try await connectFailed(error, device: device)
                // A bonded device whose link came up before the refusal lost its bond rather than
                // being stuck (its encryption failed: abort-by-local too).
                if let reason = outcome?.retryReason, let watch, await watch.linkCameUp() { return .staleBond(reason) }
                if let outcome { return outcome }
            }
            // (An unreported link cannot be watched so: its Connected reads false throughout.)
            if unreported == nil, let watch, await watch.linkFellBeforeUse(deadline: deadline) {
                return .staleBond("the link dropped before its services were resolved")
            }
        }
        let path = device.path
        let reportsBefore = unreported
        let outcome = await client.store.wait(until: deadline) { tree in
            guard let now = tree.device(at: path) else { return true }
            // An unreported link is down once bluetoothd reports Connected again (false, the value
            // we already hold); until then only ServicesResolved tells.
            if let reportsBefore, tree.connectedReports(of: path) == reportsBefore { return now.servicesResolved }
            return !now.connected || now.servicesResolved
        }
        switch outcome {
        case .satisfied(let tree):
            guard let now = tree.device(at: path) else { return .vanished }
            guard now.connected else { return .retry("the device disconnected before its services were resolved") }
            return await withExpectedServices(path: path, tree: tree, deadline: deadline)
        case .timedOut:
            await abort(device)
            throw .timeout
        case .cancelled:
            await abort(device)
            throw .cancelled
        case .busLost:
            throw .unavailable(BlueZError.busUnavailable("the connection to the system bus was lost").description)
        }
    }

    /// What a failed Connect means: nil when the device is in fact connected (AlreadyConnected).
    private func connectFailed(_ error: DBusError, device: BlueZDeviceInfo) async throws(LinkError) -> Establishment? {
        switch BlueZFailure(error, context: .connect) {
        case .retryableConnect(let text) where Self.mayBeStuck(text):
            return .stuck(text)
        case .retryableConnect(let text):
            return .retry(text)
        case .objectGone:
            return .vanished
        case .timedOut:
            await abort(device)
            return .retry("no reply to Connect")
        case .cancelled:
            await abort(device)
            throw .cancelled
        case .notReady:
            throw .unavailable(BlueZError.adapterPoweredOff(adapter.name).description)
        case .accessDenied(let text):
            throw .unavailable(BlueZError.accessDenied(text).description)
        case .bluetoothdGone:
            throw .unavailable(BlueZError.bluetoothdNotRunning.description)
        case .busLost:
            throw .unavailable(BlueZError.busUnavailable(error.description).description)
        case .other where error.remoteName == "org.bluez.Error.AlreadyConnected":
            return nil
        default:
            await abort(device)
            throw .backend("Connect: \(error)")
        }
    }

    /// The GATT layout to use once ServicesResolved is true. Our tree may lag: bluetoothd queues
    /// InterfacesAdded and property changes for idle time, and on the rig ServicesResolved=true
    /// arrived before the SMP characteristic's InterfacesAdded (bluez/bluez#1489 reports the same
    /// for whole services). `GetManagedObjects` answers from bluetoothd's live objects, so the
    /// layout is read from it. The expected services are alternatives (dfu expects SMP or Nordic
    /// DFU; a device offers one): the layout is complete once one of them is there with at least one
    /// characteristic. Until then their objects get 2 s to appear; a layout still without them is
    /// returned as it is, and the link then reports the missing characteristic by name.
    private func withExpectedServices(path: String, tree: BlueZObjectTree,
                                      deadline: ContinuousClock.Instant) async -> Establishment {
        let expected = expectedServices
        let complete: @Sendable (BlueZObjectTree) -> Bool = { tree in
            let services = tree.services(of: path)
            return expected.isEmpty
                || expected.contains { id in services.contains { $0.id == id && !$0.characteristics.isEmpty } }
        }
        let snapshot = await liveTree() ?? tree
        if complete(snapshot) { return .ready(snapshot) }
        let grace = min(deadline, ContinuousClock.now.advanced(by: .seconds(2)))
        let outcome = await client.store.wait(until: grace, for: { complete($0) || $0.device(at: path)?.connected != true })
        if case .satisfied(let later) = outcome, later.device(at: path)?.connected != true {
            return later.device(at: path) == nil ? .vanished : .retry("the device disconnected while its services were exported")
        }
        let final = await liveTree() ?? client.store.tree
        if !complete(final) {
            log("the device offers none of \(expected.map(\.description).joined(separator: ", ")) after its services were resolved")
        }
        return .ready(final)
    }

    /// bluetoothd's objects as they are now; nil when the call fails (the tree we have is used).
    func liveTree() async -> BlueZObjectTree? {
        do throws(DBusError) {
            let reply = try await client.call("/", DBusStandardInterface.objectManager, "GetManagedObjects",
                                              timeout: .seconds(10))
            return reply.first.map(BlueZObjectTree.init(managedObjects:))
        } catch {
            return nil
        }
    }

    /// Stops the StartNotify sessions an earlier link of ours left on `device`, so bluetoothd has
    /// none to arm again on the connection about to be made (`BlueZNotifySessions`). Errors are
    /// ignored: the object may be gone with the connection, and then so is the session.
    func releaseNotifySessions(of device: BlueZDeviceInfo) async {
        for characteristic in client.notifySessions.take(device: device.path) {
            _ = await client.callDetached(characteristic, BlueZNames.gattCharacteristic, "StopNotify", timeout: .seconds(5))
        }
    }

    /// Asks bluetoothd to drop the connection or cancel the pending attempt (bleak does the same on
    /// every failed or cancelled connect). Runs under cancellation; errors are ignored.
    func abort(_ device: BlueZDeviceInfo) async {
        _ = await client.callDetached(device.path, BlueZNames.device, "Disconnect", timeout: .seconds(10))
    }
}
