import Synchronization

/// The StartNotify sessions this bus connection holds in bluetoothd, by device path.
///
/// bluetoothd keeps a StartNotify session across disconnects for as long as its D-Bus owner
/// stays on the bus, and on the next connection to the device writes the CCC for it by itself as
/// soon as its GATT client is ready (5.66 gatt-client.c `register_notify`, "Re-register subscribed
/// notification client"): a request on the new link before our link exists, and when that link
/// drops meanwhile, 5.66 frees the session from inside the GATT client's teardown (seen on the
/// rig). A link subscribes afresh anyway, so the connector stops every session of a device before
/// it connects to it again (`BlueZConnector.releaseNotifySessions`).
final class BlueZNotifySessions: Sendable {
    private let sessions = Mutex<[String: Set<String>]>([:])

    /// A StartNotify on `characteristic` (an object path under `device`) succeeded.
    func opened(_ characteristic: String, device: String) {
        sessions.withLock { _ = $0[device, default: []].insert(characteristic) }
    }

    /// The sessions under `device`, forgotten here (the caller stops them).
    func take(device: String) -> [String] {
        sessions.withLock { $0.removeValue(forKey: device).map { $0.sorted() } ?? [] }
    }
}
