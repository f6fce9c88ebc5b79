#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a non-blocking call did: finished with a value, or would have had to wait.
enum SyscallOutcome<Value> {
    case done(Value)
    /// `EAGAIN`/`EWOULDBLOCK`: try again when the socket is ready. A value, not an error, because
    /// it is the normal way a non-blocking socket says "later" (swift-nio's `IOResult`).
    case wouldBlock
}

/// Every socket call of `Transport/UDP` goes through here, so errno handling lives in one place
/// (swift-nio's `SystemCallHelpers.swift`). `syscall` reads `errno` right after the call, retries
/// `EINTR`, returns `EAGAIN`/`EWOULDBLOCK` as `.wouldBlock` and throws anything else as a
/// `SystemCallError` naming the call. Sockets are opened non-blocking and close-on-exec. The
/// receive thread's `poll`, its wake-up channel and its start live here too, so no other file of
/// the folder makes a C call.
enum SocketSyscall {
    /// Runs `body` (a C call returning −1 and setting `errno` on failure) under the rules above.
    static func syscall<Value: BinaryInteger>(_ call: String, _ body: () -> Value) throws(SystemCallError)
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

    /// For calls that never wait on a non-blocking datagram socket; a would-block answer from one of
    /// them is reported as the error it is.
    private static func immediate<Value: BinaryInteger>(_ call: String, _ body: () -> Value) throws(SystemCallError)
        -> Value {
        switch try syscall(call, body) {
        case .done(let value): return value
        case .wouldBlock: throw SystemCallError(call: call, code: EAGAIN)
        }
    }

    /// A new non-blocking, close-on-exec UDP socket of `family` (`AF_INET`/`AF_INET6`).
    static func openDatagramSocket(family: Int32) throws(SystemCallError) -> Int32 {
        #if canImport(Glibc)
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC
        #endif
        return try immediate("socket") { socket(family, type, Int32(IPPROTO_UDP)) }
    }

    static func bindSocket(_ descriptor: Int32, to address: SocketAddress) throws(SystemCallError) {
        _ = try address.withSockAddr { (raw, length) throws(SystemCallError) in
            try immediate("bind") { bind(descriptor, raw, length) }
        }
    }

    /// Fixes the peer of a datagram socket: `send`/`recv` then need no address, datagrams from
    /// anyone else are dropped by the kernel, and an ICMP port-unreachable comes back as
    /// `ECONNREFUSED` on a later call.
    static func connectSocket(_ descriptor: Int32, to address: SocketAddress) throws(SystemCallError) {
        _ = try address.withSockAddr { (raw, length) throws(SystemCallError) in
            try immediate("connect") { connect(descriptor, raw, length) }
        }
    }

    /// The address the socket is bound to (the port the kernel chose for port 0).
    static func localAddress(_ descriptor: Int32) throws(SystemCallError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let address = try withUnsafeMutablePointer(to: &storage) { (pointer) throws(SystemCallError) -> SocketAddress? in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw) throws(SystemCallError) -> SocketAddress? in
                _ = try immediate("getsockname") { getsockname(descriptor, raw, &length) }
                return SocketAddress(raw, length: length)
            }
        }
        guard let address else { throw SystemCallError(call: "getsockname", code: EAFNOSUPPORT) }
        return address
    }

    /// Sends one datagram: to the connected peer when `destination` is nil. A datagram leaves whole
    /// or not at all, so a count other than `bytes.count` cannot happen.
    static func sendDatagram(_ descriptor: Int32, _ bytes: [UInt8], to destination: SocketAddress?)
        throws(SystemCallError) -> SyscallOutcome<Int> {
        // Array's pointer methods rethrow untyped errors, so the typed error crosses as a Result.
        let outcome = bytes.withUnsafeBytes { buffer -> Result<SyscallOutcome<Int>, SystemCallError> in
            Result { () throws(SystemCallError) -> SyscallOutcome<Int> in
                guard let destination else {
                    return try syscall("send") { send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
                }
                return try destination.withSockAddr { (raw, length) throws(SystemCallError) -> SyscallOutcome<Int> in
                    try syscall("sendto") {
                        sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), raw, length)
                    }
                }
            }
        }
        return try outcome.get()
    }

    /// One received datagram: its length, and its sender (nil when the kernel named none).
    typealias Received = (count: Int, sender: SocketAddress?)

    /// Receives one datagram into `buffer`. A datagram longer than `buffer` would be cut; callers
    /// pass 64 KiB, more than any UDP payload.
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

    /// What `waitForReadiness` saw.
    struct Readiness {
        /// A datagram or an error is waiting: the next receive returns one or the other.
        var readable: Bool
        /// The send buffer has room again.
        var writable: Bool
        /// Someone called `wake` since the last `clearWakeups`.
        var woken: Bool
        /// The kernel says `descriptor` is not open (`POLLNVAL`): a bug, reported as `EBADF`.
        var invalid: Bool
    }

    /// Blocks in `poll` until `descriptor` is readable, has an error (`POLLERR`: e.g. an ICMP
    /// port-unreachable; counted as readable, since `recv` reports it), is writable (only when
    /// `writable` is asked for) or `wakeup` is signalled.
    static func waitForReadiness(_ descriptor: Int32, writable: Bool, wakeup: Int32) throws(SystemCallError)
        -> Readiness {
        let wanted = Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0)
        var watched = [pollfd(fd: descriptor, events: wanted, revents: 0), pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)]
        let count = nfds_t(watched.count)
        _ = try immediate("poll") { poll(&watched, count, -1) }
        let socket = Int32(watched[0].revents)
        return Readiness(readable: socket & (POLLIN | POLLERR | POLLHUP) != 0, writable: socket & POLLOUT != 0,
                         woken: watched[1].revents != 0, invalid: socket & POLLNVAL != 0)
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

    /// Starts a detached OS thread running `body`. `body` is boxed and handed through the C start
    /// routine's context pointer (`Unmanaged`), which the thunk takes back at once.
    static func startThread(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemCallError(call: "pthread_create", code: status)
        }
        pthread_detach(thread)
    }

    /// Closes the descriptor once. Not retried on `EINTR`: Linux has released the descriptor by
    /// then, and a retry could close one another thread just opened. Errors are ignored: nothing is
    /// buffered on a datagram socket that a failed close could lose.
    static func closeSocket(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Why `getaddrinfo` found no address.
    enum ResolveFailure: Error {
        /// Try again later (`EAI_AGAIN`: the name server did not answer).
        case temporary(String)
        /// The name does not exist or has no IPv4/IPv6 address.
        case permanent(String)
    }

    /// Looks `host` up for UDP (`getaddrinfo`, any family, in the resolver's preferred order).
    /// BLOCKS while a name server answers: call it off the cooperative pool.
    static func resolve(host: String, port: UInt16) -> Result<[SocketAddress], ResolveFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        #else
        hints.ai_socktype = SOCK_DGRAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_UDP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            let reason = gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            if status == EAI_AGAIN { return .failure(.temporary(reason)) }
            if status == EAI_SYSTEM { return .failure(.permanent(SystemCallError(call: "getaddrinfo", code: errno).description)) }
            return .failure(.permanent(reason))
        }
        var addresses: [SocketAddress] = []
        var entry = list
        while let current = entry {
            if let raw = current.pointee.ai_addr, let address = SocketAddress(raw, length: current.pointee.ai_addrlen),
               !addresses.contains(address) {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(.permanent("no IPv4 or IPv6 address")) : .success(addresses)
    }
}

/// The closure a thread started by `SocketSyscall.startThread` runs.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
