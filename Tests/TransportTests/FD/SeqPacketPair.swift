#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Transport

/// A non-blocking AF_UNIX SOCK_SEQPACKET socketpair, made the way bluetoothd makes an acquired fd;
/// the test plays the far end with plain syscalls, so the code under test is the only pump.
enum SeqPacketPair {
    /// (our end, for the code under test; the far end, for the test). `sendBuffer` shrinks our
    /// end's SO_SNDBUF, so a few messages fill it.
    static func make(sendBuffer: Int32? = nil) throws -> (ours: Int32, theirs: Int32) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw SystemCallError(call: "socketpair", code: errno) }
        if var size = sendBuffer {
            _ = setsockopt(ends[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        return (ends[0], ends[1])
    }

    /// Sends one message, waiting in `poll` while the buffer is full; false once the socket refuses.
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        while true {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent >= 0 { return true }
            guard errno == EAGAIN || errno == EINTR else { return false }
            var watched = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&watched, 1, 60_000) > 0 else { return false }
        }
    }

    /// Writes messages to `fd` until the kernel refuses one (would block); returns those it took.
    static func fill(_ fd: Int32, with message: (Int) -> [UInt8]) -> [[UInt8]] {
        var written: [[UInt8]] = []
        for index in 0..<10_000 {
            let bytes = message(index)
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent >= 0 else { break }
            written.append(bytes)
        }
        return written
    }

    /// One non-blocking read: its byte count (0 is EOF: every copy of the other end is closed), or
    /// -1 when nothing is queued.
    static func receiveNow(_ fd: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let size = buffer.count
        return buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, size, Int32(MSG_DONTWAIT)) }
    }

    /// Reads `count` messages from `fd` on a thread of its own (poll, not the pool); fewer if the
    /// socket ends or a minute passes without one (that turns a hang into a failure, not a proof).
    static func readDatagrams(_ fd: Int32, count: Int) async -> [[UInt8]] {
        await withCheckedContinuation { continuation in
            Thread {
                var received: [[UInt8]] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while received.count < count {
                    var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&watched, 1, 60_000) > 0 else { break }
                    let size = buffer.count
                    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, size, 0) }
                    if n > 0 { received.append(Array(buffer.prefix(n))) } else if n == 0 { break }
                }
                continuation.resume(returning: received)
            }.start()
        }
    }
}
