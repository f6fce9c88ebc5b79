/// How many bytes one write without response may carry over BlueZ (bluez-dbus.md §8, measured on 5.66).
///
/// `AcquireWrite`'s `mtu` (and the `MTU` property) is the ATT MTU, so a value holds at most
/// MTU − 3 bytes. On top of that, bluetoothd copies fd datagrams into a 512-byte buffer (longer
/// ones are cut), and a BlueZ ≤ 5.68 GATT server drops values over 510 bytes without an error
/// (fixed in 5.69). We cannot tell which stack a peer runs, and 510 instead of 512 costs under 1 %,
/// so the 510 cap is the default.
enum BlueZWriteCap {
    /// The client-side limit: bluetoothd's fd read buffer.
    static let bluetoothdBuffer = 512
    /// The limit toward a BlueZ ≤ 5.68 peripheral.
    static let oldBlueZPeer = 510
    /// The ATT MTU range of the Core spec (23 minimum, 517 the most BlueZ negotiates).
    static let mtuRange = 23...517

    /// `min(attMTU − 3, cap)` with the MTU clamped to the spec's range, so a nonsense MTU from the
    /// bus can neither trap nor produce a zero or negative limit.
    static func maxWriteWithoutResponse(attMTU: Int, capForBlueZPeers: Bool) -> Int {
        let mtu = clampedMTU(attMTU)
        return min(mtu - 3, capForBlueZPeers ? oldBlueZPeer : bluetoothdBuffer)
    }

    static func clampedMTU(_ mtu: Int) -> Int {
        min(max(mtu, mtuRange.lowerBound), mtuRange.upperBound)
    }
}
