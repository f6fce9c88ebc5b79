import Transport

/// The one wake-up a served `VirtualDevice` needs: at its next deadline on the link clock. Each
/// `arm` replaces the previous timer, so only the latest deadline fires; nil arms nothing.
struct DeadlineTimer {
    private var task: Task<Void, Never>?

    mutating func arm(at deadline: MonotonicInstant?, on clock: LinkClock, fire: @escaping @Sendable () async -> Void) {
        cancel()
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

    /// For `fire` to call: drops the timer that is running it without cancelling it (the tick it
    /// starts runs in that timer's task, and may re-arm).
    mutating func fired() {
        task = nil
    }

    mutating func cancel() {
        task?.cancel()
        task = nil
    }
}
