/// A point in model time: how long after an origin its owner chose.
///
/// One instant type for everything that runs on model time rather than on the wall clock:
/// - `LinkClock` (the memory link's model time, its radio and the virtual devices on it) counts
///   from the moment the clock was made;
/// - the protocol cores in DFUCore never read a clock (quinn-proto's rule): every `handle` call gets
///   `now` from its driver, and deadlines come back as instants of this type. The driver maps them
///   onto whatever clock it runs on through `InstantClock` (`ContinuousClock` for real links, a
///   model clock in tests), so the same core runs in real time, faster than real time, or on a
///   test's hand-moved clock.
public struct MonotonicInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    public typealias Duration = Swift.Duration

    /// Time since the origin.
    public let sinceOrigin: Duration

    public init(sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    /// The origin itself; tests start their virtual clocks here.
    public static let zero = MonotonicInstant(sinceOrigin: .zero)

    public func advanced(by duration: Duration) -> MonotonicInstant {
        MonotonicInstant(sinceOrigin: sinceOrigin + duration)
    }

    public func duration(to other: MonotonicInstant) -> Duration { other.sinceOrigin - sinceOrigin }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.sinceOrigin < rhs.sinceOrigin
    }

    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant { lhs.advanced(by: rhs) }

    public var description: String { "t+\(sinceOrigin)" }
}
