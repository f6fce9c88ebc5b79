/// How far the upload is, by the device's own count: `acknowledged` is the last `off` it reported,
/// so it can go down when the device asks for data again.
public struct ImageUploadProgress: Sendable, Hashable, CustomStringConvertible {
    public var acknowledged: UInt64
    public var total: UInt64

    public init(acknowledged: UInt64, total: UInt64) {
        self.acknowledged = acknowledged
        self.total = total
    }

    public var fraction: Double { total == 0 ? 1 : Double(acknowledged) / Double(total) }

    public var description: String { "\(acknowledged)/\(total) bytes" }
}
