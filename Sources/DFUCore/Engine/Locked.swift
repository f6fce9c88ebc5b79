import Synchronization

/// A value shared between the tasks of one update (the transfer's progress loop and its reconnect
/// task), behind a lock. A class around `Mutex`, because a `Mutex` cannot be captured by the
/// closures that start those tasks.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }

    /// The value, left as nil: for "take the pending X, if any".
    func take<Wrapped: Sendable>() -> Wrapped? where Value == Wrapped? {
        mutex.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
