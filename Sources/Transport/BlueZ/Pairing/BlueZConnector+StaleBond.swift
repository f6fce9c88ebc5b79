import Transport

/// A device that lost its bond (issue 8, item 5): after a factory image it keeps its address but
/// forgets its keys, while bluetoothd still has Paired/Bonded true and encrypts with the old key,
/// which fails (`BlueZStaleBondWatch`). With the passkey, the stale bond is removed and the device
/// paired again, once; without it there is nothing dfu may do on the user's behalf.
extension BlueZConnector {
    /// Two signs in a row are needed: one link that fell before use can be a reboot's race.
    /// Returns true when the connect should look for the device again at once (bond removed),
    /// false to retry after the usual pause.
    func staleBond(_ device: BlueZDeviceInfo, reason: String, progress: inout SecurityProgress) async throws(LinkError)
        -> Bool {
        let label = PeerIdentity(device.address).redacted
        progress.staleBondSigns += 1
        log("connect to \(label) failed (\(reason)) although it is bonded; retrying")
        guard progress.staleBondSigns >= 2, !progress.rebonded else { return false }
        guard case .passkey = pairing.input else { throw .security(.bondLost) }
        log("warning: \(label) no longer has dfu's bond (reset or reflashed?): forgetting it and pairing again")
        progress.rebonded = true
        progress.staleBondSigns = 0
        try await removeFromBluetoothd(device)
        return true
    }
}
