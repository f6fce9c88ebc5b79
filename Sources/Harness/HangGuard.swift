/// Runs an operation with a real-time limit, to turn a hang into a failure: the fault campaign's
/// guard around each update, and the tests' bound on every wait (long, as the machine is shared and
/// the bound is only ever reached when something is stuck; nothing is timed by it).
///
/// On timeout the operation's task is cancelled and left behind: it is not awaited, because a hung
/// operation may never react, so one hang costs the limit and no more.
public enum HangGuard {
    /// The tests' bound.
    public static let limit: Duration = .seconds(60)

    public struct TimedOut: Error, CustomStringConvertible {
        public var what: String
        public var description: String { "gave up waiting for \(what) (hang?)" }
    }

    /// The operation's result, or nil when `limit` passed first. Cancelling the caller cancels the
    /// operation.
    public static func run<T: Sendable>(limit: Duration,
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
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { gate.wait(with: $0) }
        } onCancel: {
            work.cancel()
        }
        timer.cancel()
        if result == nil { work.cancel() }
        return result
    }

    /// `body`'s result or error, or `TimedOut` naming `what` when `limit` passed first.
    public static func within<T: Sendable>(_ what: String = "the operation", _ limit: Duration = limit,
                                           _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome = await run(limit: limit) { () async -> Result<T, any Error> in
            do {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        guard let outcome else { throw TimedOut(what: what) }
        return try outcome.get()
    }
}
