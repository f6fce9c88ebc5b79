import DeviceSim
import Synchronization

/// Records a `BlueZPeripheral`'s events as the lines `dfu sim` prints, and lets a test wait
/// (bounded by the caller's hang guard) until they show something.
final class EventLog: Sendable {
    private struct State {
        var lines: [String] = []
        var waiters: [(condition: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var lines: [String] { state.withLock { $0.lines } }

    func append(_ event: BlueZPeripheralEvent) {
        let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.lines.append(event.description)
            let lines = state.lines
            let done = state.waiters.filter { $0.condition(lines) }
            state.waiters.removeAll { $0.condition(lines) }
            return done.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `condition` holds for the lines so far (wrap in `PeripheralWait.within`).
    func waitFor(_ condition: @escaping @Sendable ([String]) -> Bool) async throws {
        try await PeripheralWait.within {
            await withCheckedContinuation { continuation in
                let holds = self.state.withLock { state in
                    if condition(state.lines) { return true }
                    state.waiters.append((condition, continuation))
                    return false
                }
                if holds { continuation.resume() }
            }
        }
    }
}
