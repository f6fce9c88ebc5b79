/// How far the upload is, by the device's own count: `acknowledged` is the last `off` it reported,
/// so it can go down when the device asks for data again.
public struct ImageUploadProgress: Sendable, Hashable, CustomStringConvertible {
    public var acknowledged: UInt64
    public var total: UInt64
    /// What the device already held when this upload began: the offset it answered the first
    /// packet with when that was more than the packet carried (it resumed an earlier upload of the
    /// same image); 0 for an upload from the start.
    public var startOffset: UInt64

    public init(acknowledged: UInt64, total: UInt64, startOffset: UInt64 = 0) {
        self.acknowledged = acknowledged
        self.total = total
        self.startOffset = startOffset
    }

    public var fraction: Double { total == 0 ? 1 : Double(acknowledged) / Double(total) }

    public var description: String { "\(acknowledged)/\(total) bytes" }
}
