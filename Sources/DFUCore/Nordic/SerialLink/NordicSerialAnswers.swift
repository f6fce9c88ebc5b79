import Synchronization

/// Where a `NordicSerialLink`'s own requests (ping, MTU) wait for their answers, which the link's
/// reader hands over. One request waits at a time. An answer counts only if it is the one asked
/// for (a ping's by its id, so the late answer to an earlier ping is not taken for this one's);
/// anything else is the caller's to log.
final class NordicSerialAnswers: Sendable {
    enum Outcome: Sendable, Hashable {
        case answered(NordicSerialResponse)
        /// No answer before the deadline.
        case silent
        /// The line ended (the port went away or was closed).
        case gone
    }

    private struct Waiting {
        let ticket: UInt64
        let accepts: @Sendable (NordicSerialResponse) -> Bool
        var answer: NordicSerialResponse?
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    private struct State {
        var waiting: Waiting?
        var lastTicket: UInt64 = 0
        var ended = false
    }

    private let state = Mutex(State())

    /// Starts waiting for the answer `accepts` takes, before its request is written (an answer may
    /// come before `wait` is called). Nil once the line has ended. A request that was waiting is
    /// given up.
    func expect(_ accepts: @escaping @Sendable (NordicSerialResponse) -> Bool) -> UInt64? {
        let (ticket, abandoned): (UInt64?, CheckedContinuation<Outcome, Never>?) = state.withLock { state in
            guard !state.ended else { return (nil, nil) }
            let abandoned = state.waiting?.continuation
            state.lastTicket += 1
            state.waiting = Waiting(ticket: state.lastTicket, accepts: accepts)
            return (state.lastTicket, abandoned)
        }
        abandoned?.resume(returning: .silent)
        return ticket
    }

    /// The answer to `ticket`'s request, or `.silent` once `deadline` passes (or the task is
    /// cancelled), or `.gone` when the line ends first.
    func wait(_ ticket: UInt64, until deadline: ContinuousClock.Instant) async -> Outcome {
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            self.finish(ticket, with: .silent)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let now: Outcome? = state.withLock { state in
                    guard var waiting = state.waiting, waiting.ticket == ticket else { return state.ended ? .gone : .silent }
                    if let answer = waiting.answer {
                        state.waiting = nil
                        return .answered(answer)
                    }
                    if state.ended {
                        state.waiting = nil
                        return .gone
                    }
                    waiting.continuation = continuation
                    state.waiting = waiting
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            self.finish(ticket, with: .silent)
        }
    }

    /// Hands over an answer; false when no request waits for it.
    func deliver(_ response: NordicSerialResponse) -> Bool {
        let (taken, continuation): (Bool, CheckedContinuation<Outcome, Never>?) = state.withLock { state in
            guard var waiting = state.waiting, waiting.answer == nil, waiting.accepts(response) else { return (false, nil) }
            guard let continuation = waiting.continuation else {
                waiting.answer = response
                state.waiting = waiting
                return (true, nil)
            }
            state.waiting = nil
            return (true, continuation)
        }
        continuation?.resume(returning: .answered(response))
        return taken
    }

    /// Gives up `ticket`'s request (its write failed): nothing waits for its answer any more.
    func cancel(_ ticket: UInt64) {
        finish(ticket, with: .gone)
    }

    /// The line ended: the waiting request and every later one are `.gone`.
    func end() {
        let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            state.ended = true
            let continuation = state.waiting?.continuation
            if continuation != nil { state.waiting = nil }
            return continuation
        }
        continuation?.resume(returning: .gone)
    }

    /// Ends `ticket`'s wait. Before `wait` has begun, the request is given up (so `wait` returns at
    /// once), unless its answer is in: `wait` takes that.
    private func finish(_ ticket: UInt64, with outcome: Outcome) {
        let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard let waiting = state.waiting, waiting.ticket == ticket else { return nil }
            if waiting.continuation == nil, waiting.answer != nil { return nil }
            state.waiting = nil
            return waiting.continuation
        }
        continuation?.resume(returning: outcome)
    }
}
