#if canImport(Glibc)
import ExitCodes
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DFUCore
import Synchronization

/// SIGINT and SIGTERM for a command that holds a device connection (`flash`, `info`): the first
/// one cancels the run, which closes the connection on its way out, and the command then ends
/// with 130. Ending at once (`SignalHandling`) would leave the link up: bluetoothd keeps an LE
/// link after the client that made it is gone (bluez-dbus.md §3), holding the device away from
/// other centrals. A second signal, or `cleanupLimit` without the run ending, ends dfu at once.
final class GracefulInterruption: Sendable {
    /// Long enough for a BlueZ Disconnect (its reply comes once the link is down), short enough
    /// that a user pressing Ctrl-C is not kept waiting.
    static let cleanupLimit: Duration = .seconds(5)

    /// A class, so the watcher task can share it (an `Atomic` cannot be copied into a closure).
    private final class Flag: Sendable {
        let raised = Atomic(false)
    }

    private let interrupted = Flag()
    private let watcher: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Replaces the immediate-exit handlers until `finish()`; `cancel` runs once, on the first signal.
    init(cancel: @escaping @Sendable () -> Void) {
        let signals = StopSignals.install()
        let interrupted = self.interrupted
        let task = Task {
            for await _ in signals.received {
                interrupted.raised.store(true, ordering: .sequentiallyConsistent)
                SignalHandling.install()  // a second signal ends dfu at once
                cancel()
                do { try await Task.sleep(for: Self.cleanupLimit) } catch { return }
                Self.exitNow()
            }
        }
        watcher.withLock { $0 = task }
    }

    /// Whether a signal arrived (the run was cancelled because of it).
    var wasInterrupted: Bool { interrupted.raised.load(ordering: .sequentiallyConsistent) }

    /// The run has ended: signals end dfu at once again.
    func finish() {
        SignalHandling.install()
        watcher.withLock { $0?.cancel() }
    }

    /// What `SignalHandling` prints and returns, for the end of a cleaned-up run.
    static let message = "\ndfu: interrupted"

    private static func exitNow() {
        let text = message + " (the connection did not close in time)\n"
        _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        _exit(ExitStatus.interrupted.rawValue)
    }
}
