/// Which central the virtual device is connected to, as seen from bluetoothd's peripheral side.
///
/// A GATT application never gets a connect callback: it sees the central's Device1 object under
/// its adapter go `Connected` true and false (signals, merged and sent when bluetoothd is idle),
/// and calls carrying that object's path in their `device` option. A call can come before the
/// signal, so whichever comes first starts the link. The virtual device serves one central; a
/// second one is ignored until the first is gone.
///
/// The device model is told `.connected` at the first SMP write, not when the link comes up:
/// only then is the MTU known (the `mtu` option; BlueZ 5.66 exports no MTU on the peripheral
/// side), and a device that has received nothing has nothing to send.
///
/// A value type with no I/O; `BlueZPeripheral` feeds it and acts on the answers.
struct CentralTracker: Sendable {
    struct Central: Sendable, Hashable {
        /// The central's Device1 object under our adapter.
        let path: String
        /// Counts links, so a notification queued for an earlier one is not sent on a later one.
        let generation: Int
        /// The ATT MTU from the last call that carried one.
        var mtu: Int?
        /// Whether the device model was told `.connected` for this link.
        var deviceConnected = false
        /// The device dropped the link (Device1.Disconnect is under way): nothing more from this
        /// central reaches the device.
        var dropping = false
    }

    enum WriteDecision: Sendable, Hashable {
        /// Give the write to the device; first tell it `.connected(notificationSize:)` when set.
        case deliver(connectWith: Int?)
        /// From a central the device is not connected to (a second central, or one whose link the
        /// device already dropped).
        case ignore
    }

    /// BlueZ 5.66 as a GATT server drops values longer than 510 bytes (reference §8, fixed in 5.69),
    /// so no notification may be longer, whatever the MTU.
    static let largestValue = 510
    /// What a notification loses to framing beyond the 3-byte ATT header. A BlueZ central always
    /// sets "Multiple Handle Value Notifications" in its Client Supported Features (5.66
    /// src/shared/gatt-client.c `write_client_features`), and bluetoothd then sends each value as
    /// an ATT_MULTIPLE_HANDLE_VALUE_NTF, cutting it silently to MTU − 1 − 2 (handle) − 2 (length)
    /// (src/shared/gatt-server.c `bt_gatt_server_send_notification`, called from
    /// src/gatt-database.c `send_notification_to_device`). We cannot tell a BlueZ central from
    /// another, so every notification fits that frame.
    static let multipleNotificationOverhead = 5
    /// The ATT MTU before any exchange (Core spec Vol 3 Part F §3.2.8).
    static let defaultMTU = 23

    private(set) var current: Central?
    private var links = 0

    /// The notification size for `mtu`: what a Multiple Handle Value Notification carries
    /// (MTU − 5), at most `largestValue`.
    static func notificationSize(mtu: Int?) -> Int {
        min(max(mtu ?? defaultMTU, defaultMTU) - multipleNotificationOverhead, largestValue)
    }

    /// The longest value a central may write at `mtu` (MTU − 3).
    static func writeSize(mtu: Int) -> Int { max(mtu, defaultMTU) - 3 }

    /// `path` went Connected=true (or called us first). True when it became the device's central.
    @discardableResult
    mutating func linkUp(_ path: String) -> Bool {
        guard current == nil else { return false }
        links += 1
        current = Central(path: path, generation: links)
        return true
    }

    /// `path` went Connected=false or disappeared. Whether the device model must be told
    /// `.disconnected` (it was connected to this central); nil when `path` was not the central.
    mutating func linkDown(_ path: String) -> Bool? {
        guard let current, current.path == path else { return nil }
        self.current = nil
        return current.deviceConnected && !current.dropping
    }

    /// A call from `path` carried `mtu`: remember it (a read may come before any write). Returns
    /// the MTU when it is news for this link (the first one seen, or a change), else nil.
    @discardableResult
    mutating func note(_ path: String, mtu: Int?) -> Int? {
        linkUp(path)
        guard current?.path == path, let mtu, current?.mtu != mtu else { return nil }
        current?.mtu = mtu
        return mtu
    }

    /// A WriteValue on the SMP characteristic from `path`.
    mutating func write(from path: String, mtu: Int?) -> WriteDecision {
        note(path, mtu: mtu)
        guard var central = current, central.path == path, !central.dropping else { return .ignore }
        guard !central.deviceConnected else { return .deliver(connectWith: nil) }
        central.deviceConnected = true
        current = central
        return .deliver(connectWith: Self.notificationSize(mtu: central.mtu))
    }

    /// The device dropped the link: the central to disconnect, if one is connected.
    mutating func drop() -> Central? {
        guard var central = current, !central.dropping else { return nil }
        central.dropping = true
        current = central
        return central
    }
}
