/// Calls `tick` every `interval` until stopped, for views that change while no event comes (the
/// reboot counter). One task; `stop()` ends it. The view itself decides whether a tick redraws.
final class Ticker: Sendable {
    private let task: Task<Void, Never>

    init(every interval: Duration = .milliseconds(250), _ tick: @escaping @Sendable (ContinuousClock.Instant) -> Void) {
        task = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                tick(.now)
            }
        }
    }

    func stop() { task.cancel() }

    deinit { task.cancel() }
}
