import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Waits for a child process the tests started, reaping it ourselves with `waitpid`.
///
/// Not `Process.waitUntilExit()`: Foundation learns of a child's exit through a socket the child
/// holds, and a child started at the same moment as another can inherit that socket too; the exit
/// then goes unnoticed until the other child ends, and `waitUntilExit` spins meanwhile. Under load
/// (two cores, tests starting dbus-daemons and dfu processes side by side) that stalled the whole
/// test run. `waitpid` on the pid cannot be fooled that way.
public enum ChildExit {
    public struct Status: Sendable, Equatable {
        /// The exit code, or the signal number when `exited` is false.
        public var code: Int32
        /// Whether the child exited (rather than being killed by a signal).
        public var exited: Bool

        public init(code: Int32, exited: Bool) {
            self.code = code
            self.exited = exited
        }
    }

    /// What was reaped here, so a second wait for the same child answers the same. Keyed by the
    /// process object as well as the pid: a pid is reused once its child is reaped.
    private struct Child: Hashable {
        let pid: Int32
        let object: ObjectIdentifier
    }
    private static let reaped = Mutex<[Child: Status]>([:])

    /// Blocks until `process` has ended (at most `timeout`; nil when it is still running then).
    public static func wait(_ process: Process, timeout: TimeInterval? = nil) -> Status? {
        let pid = process.processIdentifier
        // Never started: nothing to wait for (and waitpid(0) would reap any child of the group).
        guard pid > 0 else { return Status(code: -1, exited: false) }
        let child = Child(pid: pid, object: ObjectIdentifier(process))
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            if let known = reaped.withLock({ $0[child] }) { return known }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                let signal = raw & 0x7F
                let status = signal == 0 ? Status(code: (raw >> 8) & 0xFF, exited: true) : Status(code: signal, exited: false)
                reaped.withLock { $0[child] = status }
                return status
            }
            if result == -1 && errno == ECHILD && !process.isRunning {
                // Foundation reaped it first: its record is complete.
                return Status(code: process.terminationStatus, exited: process.terminationReason == .exit)
            }
            if let deadline, Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Awaits the end of `process` without blocking a thread of the cooperative pool (the BlueZ
    /// stand-in in the same test process needs it while dfu runs): checks every 10 ms.
    public static func ended(_ process: Process) async -> Status {
        while true {
            if let status = wait(process, timeout: 0) { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
