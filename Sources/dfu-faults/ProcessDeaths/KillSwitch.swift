import Synchronization

/// Kills the `dfu batch` of a batch-kill run once, when `BatchKillTrigger` fires it: the rerun is
/// never killed. (A killed `dfu flash` has its `KillSchedule`, which kills several in turn.)
final class KillSwitch: Sendable {
    private struct State {
        var target: DFUChild?
        var fired = false
    }

    private let state = Mutex(State())

    /// The child the switch kills, if it fires while that child runs.
    func aim(at child: DFUChild) {
        state.withLock { $0.target = child }
    }

    /// Stops aiming: what happens after the killed attempt kills nothing.
    func disarm() {
        state.withLock { state in
            state.target = nil
            state.fired = true
        }
    }

    /// Kills the target now, the first time only.
    func fire() {
        let target: DFUChild? = state.withLock { state in
            guard !state.fired else { return nil }
            state.fired = true
            return state.target
        }
        target?.kill()
    }

    var hasFired: Bool { state.withLock { $0.fired } }
}
