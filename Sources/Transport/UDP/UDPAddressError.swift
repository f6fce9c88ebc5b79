/// Why a `HOST:PORT` text gave no socket address. Each `description` says what to fix.
public enum UDPAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not `HOST:PORT`, `[IPv6]:PORT` or a valid host name; `reason` names the part.
    case malformed(String, reason: String)
    /// The name server says the host does not exist, or it has no IPv4/IPv6 address.
    case unknownHost(String, reason: String)
    /// The name server did not answer (`EAI_AGAIN`); the same lookup may work later.
    case resolverUnavailable(String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let text, let reason):
            return "'\(text)' is not a UDP address: \(reason). Write HOST:PORT, e.g. 127.0.0.1:1337 or [::1]:1337."
        case .unknownHost(let host, let reason):
            return "the host '\(host)' cannot be found (\(reason)). Check the name, or give a numeric address."
        case .resolverUnavailable(let host, let reason):
            return "the name '\(host)' could not be looked up now (\(reason)). Check the network and DNS, or give a numeric address."
        }
    }
}
