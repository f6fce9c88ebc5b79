import Synchronization

/// The jobs of a batch as they arrive: a plan's all at once, a discovery's one by one as devices
/// are heard. The runner takes them with `next()`, from one task at a time.
final class BatchJobQueue: Sendable {
    private struct State {
        var jobs: [BatchJob] = []
        var finished = false
        var waiter: CheckedContinuation<BatchJob?, Never>?
    }

    private let state = Mutex(State())

    /// A queue holding `jobs`, finished: nothing more comes.
    convenience init(all jobs: [BatchJob]) {
        self.init()
        for job in jobs { push(job) }
        finish()
    }

    init() {}

    func push(_ job: BatchJob) {
        let waiter = state.withLock { state -> CheckedContinuation<BatchJob?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.jobs.append(job)
            return nil
        }
        waiter?.resume(returning: job)
    }

    /// The widest name among the jobs not yet taken.
    var pendingNameWidth: Int {
        state.withLock { $0.jobs.map { TerminalText.sanitized($0.name).count }.max() ?? 0 }
    }

    /// No more jobs will come; a waiting `next()` gets nil once the queue is empty.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<BatchJob?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.jobs.isEmpty ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    /// The next job, waiting for one; nil when the queue is finished and empty, or the task is cancelled.
    func next() async -> BatchJob? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: BatchJob?? = state.withLock { state in
                    if !state.jobs.isEmpty { return .some(state.jobs.removeFirst()) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if case .some(let job) = ready { continuation.resume(returning: job) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
