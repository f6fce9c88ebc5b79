#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a non-blocking call did: finished with a value, or would have had to wait.
package enum SyscallOutcome<Value> {
    case done(Value)
    /// `EAGAIN`/`EWOULDBLOCK`: try again when the descriptor is ready. A value, not an error,
    /// because it is the normal way a non-blocking descriptor says "later" (swift-nio's `IOResult`).
    case wouldBlock
}

/// Every descriptor call of Transport and its backends goes through here, so errno handling lives
/// in one place (swift-nio's `SystemCallHelpers.swift`). `syscall` reads `errno` right after the
/// call, retries `EINTR`, returns `EAGAIN`/`EWOULDBLOCK` as `.wouldBlock` and throws anything else
/// as a `SystemCallError` naming the call. Descriptors are non-blocking and close-on-exec. The one
/// `poll` and the wake channel are in `+Poll` and `WakeChannel.swift`, threads in `+Thread`, the
/// UDP-only calls in the UDP backend's `SystemCall+UDP.swift`.
package enum SystemCall {
    /// Runs `body` (a C call returning −1 and setting `errno` on failure) under the rules above.
    package static func syscall<Value: BinaryInteger>(_ call: String, _ body: () -> Value) throws(SystemCallError)
        -> SyscallOutcome<Value> {
        while true {
            let result = body()
            if result >= 0 { return .done(result) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            throw SystemCallError(call: call, code: code)
        }
    }

    /// For calls that never wait on a non-blocking descriptor; a would-block answer from one of
    /// them is reported as the error it is.
    package static func immediate<Value: BinaryInteger>(_ call: String, _ body: () -> Value) throws(SystemCallError)
        -> Value {
        switch try syscall(call, body) {
        case .done(let value): return value
        case .wouldBlock: throw SystemCallError(call: call, code: EAGAIN)
        }
    }

    /// A close-on-exec, non-blocking duplicate of `descriptor`, so the copy is ours to close
    /// whatever the original's owner does.
    package static func duplicateNonBlocking(_ descriptor: Int32) throws(SystemCallError) -> Int32 {
        let copy = try immediate("fcntl") { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
        let flags = fcntl(copy, F_GETFL)
        // Cannot fail on a descriptor just made; if it did, a would-block call would block, not trap.
        if flags >= 0 { _ = fcntl(copy, F_SETFL, flags | O_NONBLOCK) }
        return copy
    }

    /// Whether `descriptor` is a socket; false also when `fstat` fails (the next call on it reports that).
    static func isSocket(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// Writes what the kernel takes of `bytes` (all of a datagram, or nothing; on a stream or tty
    /// maybe a part) and returns how many it took. A socket is written with `send(MSG_NOSIGNAL)`,
    /// which is `write` without the SIGPIPE a peer that went away would raise.
    static func writeBytes(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, isSocket: Bool) throws(SystemCallError)
        -> SyscallOutcome<Int> {
        // Array's pointer methods rethrow untyped errors, so the typed error crosses as a Result.
        let outcome = bytes.withUnsafeBytes { buffer -> Result<SyscallOutcome<Int>, SystemCallError> in
            Result { () throws(SystemCallError) -> SyscallOutcome<Int> in
                if isSocket {
                    return try syscall("send") { send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
                }
                return try syscall("write") { write(descriptor, buffer.baseAddress, buffer.count) }
            }
        }
        return try outcome.get()
    }

    /// Reads what is waiting into `buffer`: one whole datagram (cut at `buffer.count`, so callers
    /// size it above the largest message their socket carries), or up to `buffer.count` bytes of a
    /// stream or tty. 0 bytes is an empty datagram, or EOF once the peer hung up.
    static func readBytes(_ descriptor: Int32, into buffer: inout [UInt8]) throws(SystemCallError) -> SyscallOutcome<Int> {
        let outcome = buffer.withUnsafeMutableBytes { bytes -> Result<SyscallOutcome<Int>, SystemCallError> in
            Result { () throws(SystemCallError) -> SyscallOutcome<Int> in
                try syscall("read") { read(descriptor, bytes.baseAddress, bytes.count) }
            }
        }
        return try outcome.get()
    }

    /// Sends one datagram to `destination` on an unconnected socket. A datagram leaves whole or
    /// not at all, so a count other than `bytes.count` cannot happen.
    static func sendDatagram(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, to destination: SocketAddress)
        throws(SystemCallError) -> SyscallOutcome<Int> {
        let outcome = bytes.withUnsafeBytes { buffer -> Result<SyscallOutcome<Int>, SystemCallError> in
            Result { () throws(SystemCallError) -> SyscallOutcome<Int> in
                try destination.withSockAddr { (raw, length) throws(SystemCallError) -> SyscallOutcome<Int> in
                    try syscall("sendto") {
                        sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), raw, length)
                    }
                }
            }
        }
        return try outcome.get()
    }

    /// One received datagram: its length, and its sender (nil when the kernel named none, or one
    /// that is not IPv4/IPv6, such as the unnamed end of a socketpair).
    typealias Received = (count: Int, sender: SocketAddress?)

    /// Receives one datagram into `buffer` and names its sender, for a socket that serves many
    /// peers; otherwise as `readBytes`.
    static func receiveDatagram(_ descriptor: Int32, into buffer: inout [UInt8]) throws(SystemCallError)
        -> SyscallOutcome<Received> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let outcome = buffer.withUnsafeMutableBytes { bytes -> Result<SyscallOutcome<Received>, SystemCallError> in
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    Result { () throws(SystemCallError) -> SyscallOutcome<Received> in
                        switch try syscall("recvfrom", { recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, raw, &length) }) {
                        case .wouldBlock: return .wouldBlock
                        case .done(let count): return .done((count, length == 0 ? nil : SocketAddress(raw, length: length)))
                        }
                    }
                }
            }
        }
        return try outcome.get()
    }

    /// Bytes written to `descriptor` that the receiving end has not read yet (TIOCOUTQ, = SIOCOUTQ;
    /// on an AF_UNIX socket the kernel charges each message to the sender until the receiver reads
    /// it, overhead included; on a tty, what waits for the line), or nil when the kernel cannot say.
    /// Zero means all was read.
    static func unreadOutput(_ descriptor: Int32) -> Int? {
        var count: Int32 = 0
        let result = withUnsafeMutablePointer(to: &count) { ioctl(descriptor, UInt(TIOCOUTQ), UnsafeMutableRawPointer($0)) }
        return result == 0 ? Int(count) : nil
    }

    /// Closes the descriptor once. Not retried on `EINTR`: Linux has released the descriptor by
    /// then, and a retry could close one another thread just opened. Errors are ignored: the
    /// descriptors closed here are sockets, pipes and ttys whose owner has nothing left to flush.
    package static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }
}
