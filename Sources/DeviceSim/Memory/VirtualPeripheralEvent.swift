/// What a `VirtualPeripheral` reports of the device's life as it serves it, for a watcher that
/// times something by it (the fault campaign's kills). Reports only; nothing is decided from them.
public enum VirtualPeripheralEvent: Sendable, Hashable {
    /// The last byte of an upload was written (seen as the device answers it).
    case uploadCompleted(length: Int)
    /// The device went down (reset command, reboot fault): what MCUboot did.
    case rebooting(BootReport)
    /// One of its `fault=` faults fired (before the device acts on it: a link dropped after this).
    case faultInjected(SimFault)
}
