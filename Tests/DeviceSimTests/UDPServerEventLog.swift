import DeviceSim
import Synchronization

/// Records a `VirtualDeviceUDPServer`'s events (its `observer`) and lets a test wait, bounded, until
/// they show something: "the device is up again", not "sleep two seconds".
final class UDPServerEventLog: Sendable {
    private struct Waiter {
        let condition: @Sendable ([UDPServerEvent]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var events: [UDPServerEvent] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    var events: [UDPServerEvent] { state.withLock { $0.events } }

    /// The server's observer.
    var observer: @Sendable (UDPServerEvent) -> Void {
        { [self] event in record(event) }
    }

    private func record(_ event: UDPServerEvent) {
        let ready: [Waiter] = state.withLock { state in
            state.events.append(event)
            let events = state.events
            let done = state.waiters.filter { $0.value.condition(events) }
            for id in done.keys { state.waiters[id] = nil }
            return Array(done.values)
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// True once `condition` holds for the events so far; false if it still does not after `limit`
    /// (by default only a hang).
    func wait(within limit: Duration = .seconds(60),
              until condition: @escaping @Sendable ([UDPServerEvent]) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let id: UInt64? = state.withLock { state in
                if condition(state.events) { return nil }
                state.nextID += 1
                state.waiters[state.nextID] = Waiter(condition: condition, continuation: continuation)
                return state.nextID
            }
            guard let id else { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: limit)
                let expired = state.withLock { $0.waiters.removeValue(forKey: id) }
                expired?.continuation.resume(returning: false)
            }
        }
    }

    /// How many events match.
    func count(where matches: (UDPServerEvent) -> Bool) -> Int {
        events.filter(matches).count
    }
}
