import Synchronization

/// Something that happens once (a child reaped, its stdout read to the end), awaited by one
/// waiter, who may come before or after it happened.
final class OneShot: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Void, Never>)
        case happened
    }

    private let state = Mutex(State.pending)

    func happen() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            defer { state = .happened }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = state.withLock { state in
                if case .happened = state { return true }
                state = .waiting(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
