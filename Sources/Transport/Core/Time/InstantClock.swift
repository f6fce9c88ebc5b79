/// Any clock with `Duration` durations, read as `MonotonicInstant`s counted from the moment this
/// value was made: the one adapter between the clock a caller passes in (`ContinuousClock`, a
/// `LinkClock`, a test's manual clock) and the instants the protocol cores and the engine work in.
///
/// Copies share the origin, so instants from one copy mean the same on another. A struct over two
/// closures, so it stays `Sendable` and non-generic whatever clock it wraps.
public struct InstantClock: Clock {
    public typealias Instant = MonotonicInstant

    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration, Duration?) async throws -> Void
    public let minimumResolution: Duration

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { offset, tolerance in try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance) }
        minimumResolution = clock.minimumResolution
    }

    public var now: MonotonicInstant { MonotonicInstant(sinceOrigin: elapsed()) }

    /// Sleeps on the wrapped clock until it reaches `deadline`; throws when the task is cancelled.
    public func sleep(until deadline: MonotonicInstant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline.sinceOrigin, tolerance)
    }
}
