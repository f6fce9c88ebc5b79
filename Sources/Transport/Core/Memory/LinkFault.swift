/// A link-level failure to inject into a memory link. The link drops as if the radio lost the
/// device (supervision timeout, `DisconnectReason.connectionTimeout` on both sides). A device that
/// drops the link itself (a reboot) uses `MemoryPeripheralSession.disconnect()` instead.
public enum LinkFault: Hashable, Sendable {
    /// Lost instead of delivering the write that would take the value bytes the central has written
    /// over this connection (writes with and without response) past `n`. With `n` a multiple of the
    /// write size, exactly `n` bytes arrive.
    case dropAfterBytes(Int)
    /// Lost at this model time after the connection came up.
    case dropAt(Duration)
}
