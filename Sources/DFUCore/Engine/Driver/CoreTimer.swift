import Transport

/// The one wake-up a sans-I/O core asks for (its `.timer(at:)` action; quinn's `poll_timeout`):
/// one task sleeping on the session's clock until the earliest deadline, then calling `fire`.
///
/// One policy for every core: a timer already due no later than the new deadline is kept. Waking
/// early costs one `timerFired` event the core ignores, after which the owner re-arms from the
/// core's `nextDeadline`; replacing the task whenever the earliest deadline moves later (each SMP
/// chunk answered, each Nordic batch taken) would cost a task each time.
struct CoreTimer: Sendable {
    private let clock: InstantClock
    private var task: Task<Void, Never>?
    /// When `task` wakes; it may be earlier than the core's deadline.
    private var due: MonotonicInstant?

    init(clock: InstantClock) { self.clock = clock }

    /// Wakes at `deadline` (nil: not at all), unless a timer due no later is armed already.
    mutating func arm(_ deadline: MonotonicInstant?, fire: @escaping @Sendable () async -> Void) {
        if let deadline, let due, due <= deadline, task != nil { return }
        cancel()
        guard let deadline else { return }
        due = deadline
        let clock = clock
        task = Task {
            do { try await clock.sleep(until: deadline) } catch { return }
            await fire()
        }
    }

    /// The owner is handling the wake-up: nothing is armed any more, so the next `arm` arms.
    mutating func fired() {
        task = nil
        due = nil
    }

    mutating func cancel() {
        task?.cancel()
        task = nil
        due = nil
    }
}
