import Transport

/// The one wake-up a served `SDKDevice` needs, at its next deadline on the link clock. Each `arm`
/// replaces the previous timer; nil arms nothing.
struct SDKDeadlineTimer {
    private var task: Task<Void, Never>?
    private var armedAt: MonotonicInstant?

    mutating func arm(at deadline: MonotonicInstant?, on clock: LinkClock, fire: @escaping @Sendable () async -> Void) {
        guard deadline != armedAt || task == nil else { return }
        task?.cancel()
        task = nil
        armedAt = deadline
        guard let deadline else { return }
        task = Task {
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
            await fire()
        }
    }

    /// For `fire` to call: forgets the timer that is running it without cancelling it.
    mutating func fired() {
        task = nil
        armedAt = nil
    }
}
