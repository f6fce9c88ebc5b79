#if canImport(Glibc)
import ExitCodes
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DFUCore

/// SIGINT and SIGTERM end dfu with exit code 130 ("interrupted by a signal"); SIGPIPE is ignored so
/// a closed output pipe becomes a failed write, not a crash.
///
/// For now the handler ends the process at once: nothing dfu does yet needs cleaning up. Commands
/// that keep state across runs (the update journal) will turn this into a cancellation their engine
/// sees, and still exit 130.
enum SignalHandling {
    static func install() {
        _ = signal(SIGPIPE, SIG_IGN)
        _ = signal(SIGINT, exitOnSignal)
        _ = signal(SIGTERM, exitOnSignal)
    }
}

/// Runs inside the signal handler: only async-signal-safe calls (`write`, `_exit`), no allocation.
private func exitOnSignal(_ signalNumber: Int32) {
    let message: StaticString = "\ndfu: interrupted\n"
    _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
    _exit(ExitStatus.interrupted.rawValue)
}
