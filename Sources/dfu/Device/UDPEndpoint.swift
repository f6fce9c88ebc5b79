#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport
import UDPTransport

/// An SMP-over-UDP server, `HOST:PORT`: IPv4 (`127.0.0.1:1337`), IPv6 in brackets (`[::1]:1337`)
/// or a host name (`localhost:1337`, `device.local:1337`), as `dfu sim --serve udp:` takes them.
/// Parsing never touches the network: a name is looked up at each connect (`UDPConnector`), so a
/// device that comes back at another address after its reboot is still found.
struct UDPEndpoint: Sendable, Hashable, CustomStringConvertible {
    enum Host: Sendable, Hashable {
        /// Dotted decimal, as given (four numbers 0–255).
        case ipv4(String)
        /// The compressed form (`inet_ntop`), without brackets: `::1`, `fe80::1`.
        case ipv6(String)
        /// A DNS name in lowercase (names are case-insensitive, and one device gets one text in
        /// journals and reports): `localhost`, `device.local`.
        case name(String)
    }

    var host: Host
    /// 1–65535.
    var port: UInt16

    /// Why a text is not an endpoint; `reason` names the part that is wrong.
    struct Invalid: Error, Sendable, Equatable {
        var reason: String
    }

    /// `127.0.0.1:1337`, `[::1]:1337`: the form `init(parsing:)` reads.
    var description: String {
        switch host {
        case .ipv4(let address), .name(let address): return "\(address):\(port)"
        case .ipv6(let address): return "[\(address)]:\(port)"
        }
    }

    init(host: Host, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (the part after `udp:`).
    init(parsing text: String) throws(Invalid) {
        guard !text.isEmpty else { throw Invalid(reason: "give HOST:PORT after 'udp:' (udp:127.0.0.1:1337)") }
        let hostText: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw Invalid(reason: "'[' opens an IPv6 address but no ']' closes it (udp:[::1]:PORT)")
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else {
                throw Invalid(reason: "expected ':PORT' after ']' (udp:[\(hostText)]:PORT)")
            }
            portText = rest.dropFirst()
            host = .ipv6(try Self.ipv6(hostText))
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw Invalid(reason: "'\(text)' has no port (udp:HOST:PORT)")
            }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
            if hostText.contains(":") {
                throw Invalid(reason: "put an IPv6 address in brackets (udp:[\(hostText)]:\(portText))")
            }
            host = hostText.allSatisfy({ $0 == "." || $0.isASCIIDigit }) ? .ipv4(try Self.ipv4(hostText)) : .name(try Self.name(hostText))
        }
        port = try Self.port(portText)
    }

    private static func ipv4(_ text: Substring) throws(Invalid) -> String {
        guard !text.isEmpty else { throw Invalid(reason: "the host is missing (udp:127.0.0.1:PORT)") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        // Leading zeros are refused: some tools read `010` as octal 8, so the address would be ambiguous.
        let valid = parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit)
                && (part == "0" || !part.hasPrefix("0")) && (Int(part) ?? 256) <= 255
        }
        guard valid else {
            throw Invalid(reason: "'\(text)' is not an IPv4 address (four numbers 0-255, no leading zeros)")
        }
        return String(text)
    }

    /// A host name as `HostAndPort` accepts it (RFC 1123 labels), lowercased.
    private static func name(_ text: Substring) throws(Invalid) -> String {
        guard case .name(let name)? = try? HostAndPort(parsing: text + ":1").host else {
            throw Invalid(reason: "'\(text)' is neither an IPv4 address nor a host name; give a numeric address "
                          + "(udp:127.0.0.1:PORT), a name (udp:localhost:PORT) or an IPv6 address in brackets")
        }
        return name.lowercased()
    }

    private static func ipv6(_ text: Substring) throws(Invalid) -> String {
        var address = in6_addr()
        let parsed = String(text).withCString { inet_pton(AF_INET6, $0, &address) }
        guard parsed == 1 else { throw Invalid(reason: "'\(text)' is not an IPv6 address") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = buffer.withUnsafeMutableBufferPointer { output in
            inet_ntop(AF_INET6, &address, output.baseAddress, socklen_t(output.count))
        }
        guard written != nil else { return String(text) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func port(_ text: Substring) throws(Invalid) -> UInt16 {
        guard !text.isEmpty else { throw Invalid(reason: "the port is missing (udp:HOST:PORT)") }
        guard text.count <= 5, text.allSatisfy(\.isASCIIDigit), let number = Int(text), (1...65535).contains(number)
        else {
            throw Invalid(reason: "port '\(text)' is not a number from 1 to 65535")
        }
        return UInt16(number)
    }
}

private extension Character {
    /// `isNumber` also accepts other scripts' digits and fractions; a port or an address does not.
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
