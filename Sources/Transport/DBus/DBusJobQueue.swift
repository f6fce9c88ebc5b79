import Synchronization
import Transport

/// The only way into a connection's owner thread: callers append jobs under a mutex and signal a
/// `WakeChannel` that the owner thread polls beside libdbus's sockets, so a job wakes it at once
/// (no polling interval). Jobs take the loop as an argument, so nothing non-Sendable is captured.
final class DBusJobQueue: Sendable {
    typealias Job = @Sendable (DBusConnectionLoop) -> Void

    private struct State {
        var jobs: [Job] = []
        var stopped = false
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())
    /// Polled (and emptied) only by the owner thread; signalled by `submit`.
    let wakeChannel: WakeChannel

    init() throws {
        do throws(SystemCallError) {
            wakeChannel = try WakeChannel.open()
        } catch {
            throw DBusError.library(name: error.call, message: "\(error.name) (\(error.text))")
        }
    }

    deinit {
        wakeChannel.close()
    }

    /// Queues a job; false once the owner thread has stopped (the caller then fails by itself).
    func submit(_ job: @escaping Job) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wakeChannel.wake() }
        return accepted
    }

    /// Identifiers for calls and subscriptions, unique per connection.
    func nextID() -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    func takeAll() -> [Job] {
        state.withLock { state in
            defer { state.jobs.removeAll() }
            return state.jobs
        }
    }

    /// Refuses further jobs and returns those still queued (the owner runs them to fail them).
    func stop() -> [Job] {
        state.withLock { state in
            state.stopped = true
            defer { state.jobs.removeAll() }
            return state.jobs
        }
    }
}
