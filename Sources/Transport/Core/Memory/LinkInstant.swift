/// A point in a `LinkClock`'s model time: how long after the clock's origin.
public struct LinkInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    public typealias Duration = Swift.Duration

    /// Model time since the clock was made.
    public let sinceOrigin: Duration

    public init(sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    public func advanced(by duration: Duration) -> LinkInstant { LinkInstant(sinceOrigin: sinceOrigin + duration) }

    public func duration(to other: LinkInstant) -> Duration { other.sinceOrigin - sinceOrigin }

    public static func < (lhs: LinkInstant, rhs: LinkInstant) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }

    public var description: String { "t+\(sinceOrigin)" }
}
