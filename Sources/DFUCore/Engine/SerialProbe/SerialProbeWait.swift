import Synchronization

/// The one result of one probe, set by whichever comes first (the port's answer, the deadline, the
/// port going away) and awaited by the prober; later settings are ignored.
final class SerialProbeWait: Sendable {
    enum Result: Sendable {
        case answered
        case silent
        case lost(String)
    }

    private struct State {
        var result: Result?
        var waiter: CheckedContinuation<Result, Never>?
    }

    private let state = Mutex(State())

    /// Settles the result, unless it is settled already.
    func finish(_ result: Result) {
        let waiter = state.withLock { state -> CheckedContinuation<Result, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// The result, once settled.
    func result() async -> Result {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> Result? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
