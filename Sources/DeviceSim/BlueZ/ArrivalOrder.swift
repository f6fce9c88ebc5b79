import Transport

/// Puts method calls back in the order the D-Bus connection received them.
///
/// Each exported method's handler runs in its own task (`DBusMethodCall.arrival`), so calls that
/// arrived in order can reach the peripheral out of order. bluetoothd forwards every Write
/// Command as a WriteValue without waiting for the reply, and an SMP packet may span several:
/// order matters. A call whose turn has not come waits (`Waiter`, a continuation) until every
/// earlier call has been answered. Every handler of the connection must pass through here, or
/// the calls after a missing one would wait for ever; calls numbered 0 (built by hand, not
/// received) go at once.
struct ArrivalOrder<Waiter> {
    /// The arrival number whose turn it is.
    private(set) var next: UInt64 = 1
    private var waiting: [UInt64: Waiter] = [:]

    /// Whether the call numbered `arrival` may be answered now.
    func isTurn(_ arrival: UInt64) -> Bool {
        arrival == 0 || arrival <= next
    }

    /// Parks a call whose turn has not come.
    mutating func wait(_ arrival: UInt64, _ waiter: Waiter) {
        waiting[arrival] = waiter
    }

    /// Whether the call numbered `arrival` is parked, waiting for its turn.
    func isWaiting(_ arrival: UInt64) -> Bool {
        waiting[arrival] != nil
    }

    /// The call numbered `arrival` was answered: the next one's turn, and its waiter if it is
    /// already parked.
    mutating func finished(_ arrival: UInt64) -> Waiter? {
        guard arrival != 0 else { return nil }
        next = max(next, arrival + 1)
        return waiting.removeValue(forKey: next)
    }
}
