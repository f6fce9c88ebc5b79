import Transport

/// After a successful Connect: waiting for bluetoothd to report the connection, and going on
/// with a link it made without reporting it (BlueZ 5.66 `att_connect_cb`, docs/bluez.md).
extension BlueZConnector {
    /// What came of Connected=true after a successful Connect.
    enum ConnectedReport: Sendable {
        case shown
        /// bluetoothd holds the link as connected but never said so; `reports`: the Connected
        /// reports seen before we asked it.
        case unreported(reports: Int)
        case failed(Establishment)
    }

    /// Connect's reply overtakes the Connected=true signal (bluetoothd sends property changes from
    /// an idle callback, §2), so the tree may still say "disconnected" right after a successful
    /// Connect: wait (≤ 5 s) for Connected=true (or ServicesResolved=true) before judging the
    /// connection. bluetoothd 5.66 may never send it: when the ATT socket's connect callback runs
    /// before the kernel's Device Connected event, `att_connect_cb` marks the LE bearer connected
    /// unannounced and `device_add_connection` then returns early ("Device … is already connected"
    /// in its log; device.c, still so upstream; seen on the rig, where bleak gives such a link up).
    /// So when the signal does not come, bluetoothd is asked (GetManagedObjects); if it says
    /// connected, go on.
    func connectedShowsUp(_ device: BlueZDeviceInfo, deadline: ContinuousClock.Instant) async -> ConnectedReport {
        let path = device.path
        let reports = client.store.tree.connectedReports(of: path)
        let grace = min(deadline, ContinuousClock.now.advanced(by: .seconds(5)))
        switch await client.store.wait(until: grace, for: { $0.device(at: path)?.connected != false }) {
        case .satisfied(let tree):
            return tree.device(at: path) == nil ? .failed(.vanished) : .shown
        case .timedOut:
            // bluetoothd's own objects, not our signal-fed copy of them, say whether it holds the link.
            if client.store.tree.connectedReports(of: path) == reports, await liveTree()?.device(at: path)?.connected == true {
                log("bluetoothd made the link to \(PeerIdentity(device.address).redacted) without reporting it"
                    + " (Connected stayed false; BlueZ 5.66 att_connect_cb); it says connected, so going on")
                return .unreported(reports: reports)
            }
            await abort(device)
            return .failed(.retry("Connect succeeded but bluetoothd never reported the connection"))
        case .cancelled, .busLost:
            return .shown  // the wait below reports these
        }
    }
}
