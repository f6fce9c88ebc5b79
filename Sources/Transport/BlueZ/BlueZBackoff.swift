import Transport

/// Pauses between connect attempts: doubling from `first` up to `limit`, never past the deadline.
/// A value: the connector keeps one per `connect` call.
struct BlueZBackoff: Sendable, Equatable {
    let first: Duration
    let limit: Duration
    private(set) var next: Duration

    /// 250 ms doubling to 2 s: quick after a spurious `le-connection-abort-by-local`, gentle on
    /// a controller that keeps refusing.
    init(first: Duration = .milliseconds(250), limit: Duration = .seconds(2)) {
        self.first = first
        self.limit = limit
        next = first
    }

    /// The pause to take now, cut to what is left before `deadline` (zero when nothing is left),
    /// and advances to the following one.
    mutating func pause(now: ContinuousClock.Instant, deadline: ContinuousClock.Instant) -> Duration {
        let pause = min(next, max(.zero, now.duration(to: deadline)))
        next = min(next * 2, limit)
        return pause
    }
}
