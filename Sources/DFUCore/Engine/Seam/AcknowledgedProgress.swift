/// How far a transfer is by the device's own count, for any protocol: `acknowledged` is what the
/// device last said it holds (SMP's `off`, Nordic's offset after a checksum), so it can go down
/// when the device asks for data again or loses what it had (SDK 16/17 after a link loss). The
/// protocol cores report it, their sessions pass it on, and the engine's transfer stage turns it
/// into `TransferProgress`.
public struct AcknowledgedProgress: Sendable, Hashable, CustomStringConvertible {
    public var acknowledged: UInt64
    public var total: UInt64
    /// What the device already held when this transfer began: an earlier run's, that this one
    /// resumes from (SMP: the offset the first packet was answered with, when more than it
    /// carried; Nordic: the firmware bytes the bootloader kept when the data object was first
    /// selected); 0 for a transfer from the start.
    public var startOffset: UInt64

    public init(acknowledged: UInt64, total: UInt64, startOffset: UInt64 = 0) {
        self.acknowledged = acknowledged
        self.total = total
        self.startOffset = startOffset
    }

    public var fraction: Double { total == 0 ? 1 : Double(acknowledged) / Double(total) }

    public var description: String { "\(acknowledged)/\(total) bytes" }
}
