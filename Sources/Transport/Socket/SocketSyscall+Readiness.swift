#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pump thread's wait: `poll` on one socket plus a wake-up channel other threads signal.
extension SocketSyscall {
    /// What `waitForReadiness` saw.
    struct Readiness {
        /// A message, an error or EOF is waiting: the next receive returns one of them.
        var readable: Bool
        /// The peer closed its end (`POLLHUP`): what is queued can still be read, then EOF.
        var hungUp: Bool
        /// The send buffer has room again.
        var writable: Bool
        /// Someone called `wake` since the last `clearWakeups`.
        var woken: Bool
        /// The kernel says `descriptor` is not open (`POLLNVAL`): a bug, reported as `EBADF`.
        var invalid: Bool
    }

    /// Blocks in `poll` until `descriptor` is readable, has an error (`POLLERR`: e.g. an ICMP
    /// port-unreachable, or a reset peer; counted as readable, since `recv` reports it), hung up,
    /// is writable (only when `writable` is asked for) or `wakeup` is signalled.
    static func waitForReadiness(_ descriptor: Int32, writable: Bool, wakeup: Int32) throws(SystemCallError)
        -> Readiness {
        let wanted = Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0)
        var watched = [pollfd(fd: descriptor, events: wanted, revents: 0), pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)]
        let count = nfds_t(watched.count)
        _ = try immediate("poll") { poll(&watched, count, -1) }
        let socket = Int32(watched[0].revents)
        return Readiness(readable: socket & (POLLIN | POLLERR | POLLHUP) != 0, hungUp: socket & POLLHUP != 0,
                         writable: socket & POLLOUT != 0, woken: watched[1].revents != 0,
                         invalid: socket & POLLNVAL != 0)
    }

    /// A wake-up channel for a thread blocked in `waitForReadiness`: a non-blocking Unix datagram
    /// socket pair (eventfd and pipe2 need `_GNU_SOURCE`, which Swift's Glibc module lacks).
    /// Returns (the end to watch, the end to signal).
    static func openWakeupChannel() throws(SystemCallError) -> (watch: Int32, signal: Int32) {
        #if canImport(Glibc)
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC
        #endif
        var ends: [Int32] = [-1, -1]
        _ = try immediate("socketpair") { socketpair(AF_UNIX, type, 0, &ends) }
        return (ends[0], ends[1])
    }

    /// Signals the channel. A full channel already holds a wake-up, so would-block is success.
    static func wake(_ signal: Int32) {
        var byte: UInt8 = 1
        _ = try? syscall("send") { send(signal, &byte, 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Empties the channel, so the next wait blocks until the next `wake`.
    static func clearWakeups(_ watch: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        let size = bytes.count
        while case .done(let count)? = try? syscall("recv", { recv(watch, &bytes, size, 0) }), count > 0 {}
    }
}
