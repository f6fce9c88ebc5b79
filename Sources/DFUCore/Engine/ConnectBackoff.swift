/// The pause before trying to connect again after an attempt failed fast (the stack refused, the
/// connection could not be established): doubling from `first`, never above `cap`, so a device that
/// is briefly away is found quickly and one that stays away is not hammered. An attempt that simply
/// waits for the device to appear needs no backoff: `Connector.connect` waits until its deadline.
struct ConnectBackoff: Sendable, Equatable {
    let first: Duration
    let cap: Duration
    /// Attempts made so far (the next pause depends on it).
    private(set) var failures = 0

    init(first: Duration = .milliseconds(100), cap: Duration = .seconds(2)) {
        self.first = first
        self.cap = max(first, cap)
    }

    /// The pause after one more failed attempt.
    mutating func nextDelay() -> Duration {
        let doublings = min(failures, 30) // 2^30 × anything sensible is far above any cap
        failures += 1
        var delay = first
        for _ in 0 ..< doublings {
            delay *= 2
            if delay >= cap { return cap }
        }
        return min(delay, cap)
    }
}
