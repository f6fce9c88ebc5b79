/// How much of the firmware the device holds by its own offset and CRC (it can go down when the
/// device loses data, e.g. after a link loss on SDK 16/17).
public struct NordicTransferProgress: Sendable, Hashable, CustomStringConvertible {
    public var acknowledged: UInt64
    public var total: UInt64

    public init(acknowledged: UInt64, total: UInt64) {
        self.acknowledged = acknowledged
        self.total = total
    }

    public var fraction: Double { total == 0 ? 1 : Double(acknowledged) / Double(total) }

    public var description: String { "\(acknowledged)/\(total) bytes" }
}
