import Synchronization

/// Runs an operation with a real-time limit: its result, or nil when the limit passed first. On
/// timeout the operation's task is cancelled and left behind — it is not awaited, because a hung
/// operation may never react — so one hang costs the campaign the limit and no more.
enum HangGuard {
    static func run<T: Sendable>(limit: Duration,
                                 _ operation: @escaping @Sendable () async -> T) async -> T? {
        let gate = Gate<T?>()
        let work = Task {
            gate.open(with: await operation())
        }
        let timer = Task {
            // Cancelled when the work finished first; then the gate is open already.
            try? await Task.sleep(for: limit)
            gate.open(with: nil)
        }
        let result = await withCheckedContinuation { gate.wait(with: $0) }
        timer.cancel()
        if result == nil { work.cancel() }
        return result
    }
}

/// One value handed over once, by whichever side comes first; the waiter may arrive before or after.
private final class Gate<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<T, Never>)
        case opened(T)
        case done
    }

    private let state = Mutex(State.empty)

    func wait(with continuation: CheckedContinuation<T, Never>) {
        let ready: T? = state.withLock { state in
            if case .opened(let value) = state {
                state = .done
                return value
            }
            state = .waiting(continuation)
            return nil
        }
        // `T` may itself be optional: `ready` is nil only when nothing was opened yet.
        if let ready { continuation.resume(returning: ready) }
    }

    func open(with value: T) {
        let waiter: CheckedContinuation<T, Never>? = state.withLock { state in
            switch state {
            case .empty:
                state = .opened(value)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .opened, .done:
                return nil
            }
        }
        waiter?.resume(returning: value)
    }
}
