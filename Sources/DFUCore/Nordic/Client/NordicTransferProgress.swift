/// How much of the firmware the device holds by its own offset and CRC (it can go down when the
/// device loses data, e.g. after a link loss on SDK 16/17).
public struct NordicTransferProgress: Sendable, Hashable, CustomStringConvertible {
    public var acknowledged: UInt64
    public var total: UInt64
    /// Firmware bytes the bootloader already held (and kept) when this transfer first selected the
    /// data object: an earlier run's, that this one resumes from; 0 for a transfer from the start.
    public var startOffset: UInt64

    public init(acknowledged: UInt64, total: UInt64, startOffset: UInt64 = 0) {
        self.acknowledged = acknowledged
        self.total = total
        self.startOffset = startOffset
    }

    public var fraction: Double { total == 0 ? 1 : Double(acknowledged) / Double(total) }

    public var description: String { "\(acknowledged)/\(total) bytes" }
}
