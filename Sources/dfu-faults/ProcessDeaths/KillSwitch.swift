import Synchronization

/// Kills one `dfu batch` of a batch-kill run once, when `BatchKillTrigger` fires it (a second switch
/// kills the rerun of `batch-kill-twice`). A kill that comes before its child was aimed at waits
/// for it. (A killed `dfu flash` has its `KillSchedule`, which kills several in turn.)
final class KillSwitch: Sendable {
    private struct State {
        var target: DFUChild?
        var fired = false
        /// Fired before a child was aimed at: the next one aimed at is killed at once.
        var pending = false
    }

    private let state = Mutex(State())

    /// The child the switch kills, if it fires while that child runs.
    func aim(at child: DFUChild) {
        let killNow = state.withLock { state in
            state.target = child
            defer { state.pending = false }
            return state.pending
        }
        if killNow { child.kill() }
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
            if state.target == nil { state.pending = true }
            return state.target
        }
        target?.kill()
    }

    var hasFired: Bool { state.withLock { $0.fired } }
}
