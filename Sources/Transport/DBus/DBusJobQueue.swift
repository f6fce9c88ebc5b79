import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The only way into a connection's owner thread: callers append jobs under a mutex and write one
/// byte to a pipe that the owner thread polls beside libdbus's sockets, so a job wakes it at once
/// (no polling interval). Jobs take the loop as an argument, so nothing non-Sendable is captured.
final class DBusJobQueue: Sendable {
    typealias Job = @Sendable (DBusConnectionLoop) -> Void

    private struct State {
        var jobs: [Job] = []
        var stopped = false
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())
    /// Read end, polled (and drained) only by the owner thread.
    let wakeDescriptor: Int32
    private let wakeWriteDescriptor: Int32

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        // pipe2 is not exported by Swift's Glibc module: set the flags one by one.
        guard pipe(&descriptors) == 0 else { throw DBusError.library(name: "pipe", message: "errno \(errno)") }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        wakeDescriptor = descriptors[0]
        wakeWriteDescriptor = descriptors[1]
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Queues a job; false once the owner thread has stopped (the caller then fails by itself).
    func submit(_ job: @escaping Job) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted {
            // A full pipe already wakes the loop, so a failed write (EAGAIN) loses nothing.
            var byte: UInt8 = 1
            _ = write(wakeWriteDescriptor, &byte, 1)
        }
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

    func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeDescriptor, &buffer, buffer.count) > 0 {}
    }
}
