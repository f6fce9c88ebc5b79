#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A numeric IPv4 or IPv6 address and a port: what a socket is bound or connected to, and who
/// sent a datagram. Stored as plain numbers (not `sockaddr_in`) so it is `Hashable`, `Sendable`
/// and free of C layout; the C form exists only inside `withSockAddr`.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    public enum IP: Hashable, Sendable {
        /// `a.b.c.d` as the number `a << 24 | b << 16 | c << 8 | d`.
        case v4(UInt32)
        /// The 128 bits as two big-endian halves, plus the interface index of a link-local
        /// address (`fe80::1%2`); 0 when there is none.
        case v6(high: UInt64, low: UInt64, scopeID: UInt32)
    }

    public var ip: IP
    public var port: UInt16

    public init(ip: IP, port: UInt16) {
        self.ip = ip
        self.port = port
    }

    /// `127.0.0.1:port`.
    public static func loopbackV4(port: UInt16) -> SocketAddress { SocketAddress(ip: .v4(0x7F00_0001), port: port) }

    /// `[::1]:port`.
    public static func loopbackV6(port: UInt16) -> SocketAddress {
        SocketAddress(ip: .v6(high: 0, low: 1, scopeID: 0), port: port)
    }

    /// Parses a numeric host only (`192.0.2.1`, `::1`, `fe80::1%2`); never asks a name server.
    /// IPv4 follows `inet_pton`, which refuses leading zeros (`010.0.0.1` could be read as octal).
    public init?(numericHost host: String, port: UInt16) {
        var v4 = in_addr()
        if host.withCString({ inet_pton(AF_INET, $0, &v4) }) == 1 {
            self.init(ip: .v4(UInt32(bigEndian: v4.s_addr)), port: port)
            return
        }
        // A scope is the interface index after '%'; interface names need getaddrinfo.
        let parts = host.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        var scopeID: UInt32 = 0
        if parts.count == 2 {
            guard let index = UInt32(parts[1]) else { return nil }
            scopeID = index
        }
        var v6 = in6_addr()
        guard String(parts[0]).withCString({ inet_pton(AF_INET6, $0, &v6) }) == 1 else { return nil }
        let (high, low) = Self.halves(of: v6)
        self.init(ip: .v6(high: high, low: low, scopeID: scopeID), port: port)
    }

    public var isIPv6: Bool {
        if case .v6 = ip { return true }
        return false
    }

    /// The host without the port: `127.0.0.1`, `::1`, `fe80::1%2`.
    public var host: String {
        switch ip {
        case .v4(let value):
            return (0..<4).reversed().map { String(UInt8(truncatingIfNeeded: value >> ($0 * 8))) }.joined(separator: ".")
        case .v6(let high, let low, let scopeID):
            var raw = Self.in6(high: high, low: low)
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let written = buffer.withUnsafeMutableBufferPointer { output in
                inet_ntop(AF_INET6, &raw, output.baseAddress, socklen_t(output.count))
            }
            // inet_ntop fails only for a short buffer; INET6_ADDRSTRLEN is always long enough.
            let text = written == nil ? "?" : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                     as: UTF8.self)
            return scopeID == 0 ? text : "\(text)%\(scopeID)"
        }
    }

    /// `127.0.0.1:1337` or `[::1]:1337`: the form `HostAndPort(parsing:)` reads back.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `AF_INET` or `AF_INET6`, for `socket()`.
    package var family: Int32 { isIPv6 ? AF_INET6 : AF_INET }

    /// Lends the C form for the length of `body`.
    package func withSockAddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch ip {
        case .v4(let value):
            var raw = sockaddr_in()
            raw.sin_family = sa_family_t(AF_INET)
            raw.sin_port = port.bigEndian
            raw.sin_addr = in_addr(s_addr: value.bigEndian)
            return try Self.lend(&raw, body)
        case .v6(let high, let low, let scopeID):
            var raw = sockaddr_in6()
            raw.sin6_family = sa_family_t(AF_INET6)
            raw.sin6_port = port.bigEndian
            raw.sin6_addr = Self.in6(high: high, low: low)
            raw.sin6_scope_id = scopeID
            return try Self.lend(&raw, body)
        }
    }

    /// Reads a `sockaddr` the kernel filled in (`recvfrom`, `getsockname`, `getaddrinfo`); nil for a
    /// family other than IPv4/IPv6 or a length too short for its family.
    package init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET where Int(length) >= MemoryLayout<sockaddr_in>.size:
            let raw = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self.init(ip: .v4(UInt32(bigEndian: raw.sin_addr.s_addr)), port: UInt16(bigEndian: raw.sin_port))
        case AF_INET6 where Int(length) >= MemoryLayout<sockaddr_in6>.size:
            let raw = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            let (high, low) = Self.halves(of: raw.sin6_addr)
            self.init(ip: .v6(high: high, low: low, scopeID: raw.sin6_scope_id), port: UInt16(bigEndian: raw.sin6_port))
        default:
            return nil
        }
    }

    private static func lend<Raw, Result, Failure: Error>(
        _ raw: inout Raw, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let length = socklen_t(MemoryLayout<Raw>.size)
        return try withUnsafeMutablePointer(to: &raw) { (pointer) throws(Failure) -> Result in
            // sockaddr_in/in6 begin with the common sockaddr header, and sockaddr is no larger than
            // either, so the rebound view stays inside `raw`; the kernel reads `length` bytes.
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(Failure) -> Result in
                try body(address, length)
            }
        }
    }

    private static func halves(of address: in6_addr) -> (UInt64, UInt64) {
        withUnsafeBytes(of: address) { bytes in
            (bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }, bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
        }
    }

    private static func in6(high: UInt64, low: UInt64) -> in6_addr {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { bytes in
            for index in 0..<8 {
                bytes[index] = UInt8(truncatingIfNeeded: high >> ((7 - index) * 8))
                bytes[index + 8] = UInt8(truncatingIfNeeded: low >> ((7 - index) * 8))
            }
        }
        return address
    }
}
