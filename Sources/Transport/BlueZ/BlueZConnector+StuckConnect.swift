import Transport

/// A Connect that bluetoothd refuses with `le-connection-abort-by-local` or InProgress ("Operation
/// already in progress") again and again: its state for the device is stuck (a pending connection
/// it never cleared, the controller refusing a second Create Connection: bluez#631, bleak#1036).
/// The first such refusal is retried after the usual pause; at the second in a row an unpaired
/// device is removed from bluetoothd (`Adapter1.RemoveDevice`, which also cancels what it had
/// pending) and found again, as factory tools built on bleak do. A paired device is never removed:
/// that would delete its bond, so it is only retried.
extension BlueZConnector {
    /// Refusals in a row of one connect call, and whether a removal was done (at most one).
    struct StuckConnects: Sendable {
        var inARow = 0
        var removed = false
    }

    /// The retryable Connect failures that can mean stuck state rather than a busy radio.
    static func mayBeStuck(_ text: String) -> Bool {
        ["le-connection-abort-by-local", "Operation already in progress", "In Progress", "InProgress"]
            .contains { text.contains($0) }
    }

    /// Returns true when the device was removed and is to be looked for again at once; false to
    /// retry after the usual pause.
    func unstick(_ device: BlueZDeviceInfo, reason: String, count: inout StuckConnects) async throws(LinkError) -> Bool {
        let label = PeerIdentity(device.address).redacted
        count.inARow += 1
        guard count.inARow >= 2, !count.removed, !device.paired else {
            log("connect to \(label) failed (\(reason)); retrying")
            return false
        }
        count.removed = true
        count.inARow = 0
        log("connect to \(label) failed again (\(reason)): removing it from bluetoothd and looking for it again")
        try await removeFromBluetoothd(device)
        return true
    }
}
