#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization

/// SIGINT and SIGTERM as events `dfu sim` can await, replacing the handlers `SignalHandling`
/// installed (which end dfu with 130 at once).
///
/// A signal handler may only make async-signal-safe calls, so it writes the signal's number into a
/// pipe (the self-pipe trick); a blocking read on a Dispatch global queue, as `HostResolver` does
/// with `getaddrinfo`, turns each byte into an element of `received`. Not a `DispatchSourceSignal`:
/// on Linux it reads a signalfd whose signals are blocked only in Dispatch's own thread, so a
/// signal sent to the process would still reach the old handler in any other thread.
final class StopSignals: Sendable {
    /// The pipe's write end, read by the handler. Set before the handler is installed, so the
    /// handler never runs this static's lazy initialiser (which is not async-signal-safe).
    static let writeEnd = Atomic<Int32>(-1)

    let received: AsyncStream<Int32>

    private init(received: AsyncStream<Int32>) {
        self.received = received
    }

    /// Installs the handlers for the rest of the process. Without a pipe (out of descriptors) the
    /// old handlers stay and a signal ends dfu with 130, which still stops the server.
    static func install() -> StopSignals {
        let (received, continuation) = AsyncStream.makeStream(of: Int32.self)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            continuation.finish()
            return StopSignals(received: received)
        }
        // Not inherited by programs dfu might start.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        writeEnd.store(ends[1], ordering: .sequentiallyConsistent)
        DispatchQueue.global().async {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    continuation.yield(Int32(byte))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    continuation.finish()
                    return
                }
            }
        }
        _ = signal(SIGINT, forwardStopSignal)
        _ = signal(SIGTERM, forwardStopSignal)
        return StopSignals(received: received)
    }
}

/// Runs inside the signal handler: one `write`, errno kept for the interrupted code.
private func forwardStopSignal(_ signalNumber: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(StopSignals.writeEnd.load(ordering: .relaxed), &byte, 1)
    errno = savedErrno
}
