import Synchronization

/// One value handed over once, by whichever side comes first; the waiter may arrive before or after.
final class Gate<T: Sendable>: Sendable {
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
