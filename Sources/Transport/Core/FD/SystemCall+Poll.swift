#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One descriptor a thread waits on, and for what.
package struct PollWatch {
    package var descriptor: Int32
    /// Wait for `POLLOUT` too (errors and hang-ups are always reported).
    package var writable: Bool
    /// Wait for `POLLIN`; off for a descriptor that is only written.
    package var readable: Bool

    package init(descriptor: Int32, writable: Bool, readable: Bool = true) {
        self.descriptor = descriptor
        self.writable = writable
        self.readable = readable
    }
}

/// What `poll` saw on one watched descriptor.
package struct PollReadiness {
    /// Data (or EOF) can be read (`POLLIN`).
    package var input: Bool
    /// There is room to write (`POLLOUT`).
    package var output: Bool
    /// An error is pending (`POLLERR`: e.g. an ICMP port-unreachable, or a reset peer); the next
    /// read or write reports it.
    package var error: Bool
    /// The peer closed its end (`POLLHUP`): what is queued can still be read, then EOF.
    package var hungUp: Bool
    /// The kernel says the descriptor is not open (`POLLNVAL`): a bug, reported as `EBADF`.
    package var invalid: Bool

    /// The next read returns something: data, EOF or an error.
    var readable: Bool { input || error || hungUp }
    /// Nothing happened on the descriptor.
    package var isEmpty: Bool { !(input || output || error || hungUp || invalid) }
}

/// The one wait of every thread that serves descriptors (an `FDPump`'s, the D-Bus connection's):
/// `poll` over the descriptors plus a `WakeChannel` that other threads signal.
extension SystemCall {
    /// Blocks until one of `watches` is ready, `wakeChannel` is signalled (then emptied, so the next
    /// wait blocks until the next `wake`), or `deadline` passes (nil: no deadline). Returns what was
    /// seen on each watch, in order. `EINTR` retries with the time left until `deadline`.
    package static func waitForReadiness(of watches: [PollWatch], wakeChannel: WakeChannel,
                                 until deadline: ContinuousClock.Instant? = nil) throws(SystemCallError)
        -> [PollReadiness] {
        var descriptors = watches.map { watch in
            let events = (watch.readable ? Int16(POLLIN) : 0) | (watch.writable ? Int16(POLLOUT) : 0)
            return pollfd(fd: watch.descriptor, events: events, revents: 0)
        }
        descriptors.append(pollfd(fd: wakeChannel.watch, events: Int16(POLLIN), revents: 0))
        let count = nfds_t(descriptors.count)
        _ = try immediate("poll") { poll(&descriptors, count, milliseconds(until: deadline)) }
        if descriptors[watches.count].revents != 0 { wakeChannel.clear() }
        return descriptors.prefix(watches.count).map { descriptor in
            let seen = Int32(descriptor.revents)
            return PollReadiness(input: seen & POLLIN != 0, output: seen & POLLOUT != 0, error: seen & POLLERR != 0,
                                 hungUp: seen & POLLHUP != 0, invalid: seen & POLLNVAL != 0)
        }
    }

    /// `poll`'s timeout: milliseconds until `deadline`, rounded up so a wake-up is never early;
    /// 0 once it passed; -1 (wait for I/O only) without one.
    static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
