#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// The socket calls only UDP makes: opening a UDP socket, fixing its address or peer, and name lookup.
extension SystemCall {
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

    /// Why `getaddrinfo` found no address.
    enum ResolveFailure: Error {
        /// Try again later (`EAI_AGAIN`: the name server did not answer).
        case temporary(String)
        /// The name does not exist or has no IPv4/IPv6 address.
        case permanent(String)
    }

    /// What a `getaddrinfo` status means, in the words of dfu's messages (the library's own text
    /// for the rare ones).
    private static func resolverWords(_ status: Int32) -> String {
        switch status {
        case EAI_NONAME: return "no such host is known"
        case EAI_AGAIN: return "the name server did not answer"
        case EAI_FAIL: return "the name server failed"
        default: return gai_strerror(status).map { "getaddrinfo: " + String(cString: $0) } ?? "getaddrinfo error \(status)"
        }
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
            let reason = resolverWords(status)
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
