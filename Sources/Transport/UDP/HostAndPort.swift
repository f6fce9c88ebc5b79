import Transport

/// A UDP server as the user writes it: `127.0.0.1:1337`, `[::1]:1337`, `[fe80::1%eth0]:1337`,
/// `device.local:1337`. Parsing checks the text only; `SocketAddress` values come from resolving it
/// (`UDPConnector`, `UDPServerSocket.bind(_:)`), which asks a name server only for names.
public struct HostAndPort: Hashable, Sendable, CustomStringConvertible {
    public enum Host: Hashable, Sendable {
        /// Dotted decimal, four numbers 0–255 without leading zeros.
        case ipv4(String)
        /// An IPv6 literal without its brackets, possibly with a `%scope`.
        case ipv6(String)
        /// A DNS host name (ASCII letters, digits, hyphens; labels of 1–63 characters).
        case name(String)
    }

    public var host: Host
    /// 0–65535. Port 0 means "any free port" when binding a server and is refused by `UDPConnector`.
    public var port: UInt16

    public init(host: Host, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The text form of a numeric address.
    public init(_ address: SocketAddress) {
        host = address.isIPv6 ? .ipv6(address.host) : .ipv4(address.host)
        port = address.port
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT`. An IPv6 address must be in brackets, since its colons
    /// would otherwise be read as the port separator.
    public init(parsing text: String) throws(UDPAddressError) {
        func fail(_ reason: String) -> UDPAddressError { .malformed(text, reason: reason) }
        let hostText: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw fail("'[' opens an IPv6 address but no ']' closes it") }
            hostText = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw fail("':PORT' must follow ']'") }
            portText = rest.dropFirst()
            guard Self.isIPv6Literal(hostText) else { throw fail("'\(hostText)' is not an IPv6 address") }
            host = .ipv6(String(hostText))
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw fail("the port is missing") }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard !hostText.isEmpty else { throw fail("the host is missing") }
            guard !hostText.contains(":") else { throw fail("an IPv6 address goes in brackets, [\(hostText)]:PORT") }
            if hostText.allSatisfy({ $0 == "." || Self.isDigit($0) }) {
                // All digits and dots: meant as IPv4, so it must be one (not a name like "1.2.3.256").
                guard SocketAddress(numericHost: String(hostText), port: 0) != nil else {
                    throw fail("'\(hostText)' is not an IPv4 address (four numbers 0-255, no leading zeros)")
                }
                host = .ipv4(String(hostText))
            } else {
                guard Self.isHostName(hostText) else { throw fail("'\(hostText)' is not a valid host name") }
                host = .name(String(hostText))
            }
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(Self.isDigit), let number = Int(portText),
              number <= 65535 else {
            throw fail("the port '\(portText)' is not a number from 0 to 65535")
        }
        port = UInt16(number)
    }

    /// The host as `getaddrinfo` takes it (no brackets).
    public var hostText: String {
        switch host {
        case .ipv4(let text), .ipv6(let text), .name(let text): return text
        }
    }

    /// The address without a lookup, when the host is numeric (an IPv6 scope must then be an
    /// interface index, not a name).
    public var numericAddress: SocketAddress? {
        switch host {
        case .ipv4(let text), .ipv6(let text): return SocketAddress(numericHost: text, port: port)
        case .name: return nil
        }
    }

    public var description: String {
        switch host {
        case .ipv6(let text): return "[\(text)]:\(port)"
        case .ipv4(let text), .name(let text): return "\(text):\(port)"
        }
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isWholeNumber }

    /// An address `inet_pton` accepts, optionally followed by `%` and an interface name or index.
    private static func isIPv6Literal(_ text: Substring) -> Bool {
        let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        guard SocketAddress(numericHost: String(parts[0]), port: 0)?.isIPv6 == true else { return false }
        guard parts.count == 2 else { return true }
        let scope = parts[1]
        return !scope.isEmpty && scope.count <= 15
            && scope.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
    }

    /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, each 1–63
    /// characters, at most 253 in all; one trailing dot (a rooted name) is allowed.
    private static func isHostName(_ text: Substring) -> Bool {
        let name = text.hasSuffix(".") ? text.dropLast() : text
        guard !name.isEmpty, name.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
