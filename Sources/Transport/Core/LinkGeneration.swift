/// Numbers one connection attempt. Every event a link emits carries it, so a consumer that has
/// reconnected drops late events from the previous connection by comparing generations
/// (ARCHITECTURE: "A late callback from an earlier connection attempt is rejected by its generation").
/// A `Connector` hands out strictly increasing generations.
public struct LinkGeneration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: LinkGeneration, rhs: LinkGeneration) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The generation after this one.
    public var next: LinkGeneration { LinkGeneration(rawValue &+ 1) }

    public var description: String { "#\(rawValue)" }
}
