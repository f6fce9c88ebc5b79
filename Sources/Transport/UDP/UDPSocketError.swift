import Transport

/// Why a `UDPServerSocket` call failed. Each `description` says what happened and what to try.
public enum UDPSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The address to bind to is malformed or cannot be resolved.
    case address(UDPAddressError)
    /// The system refused a socket call (`bind`: `EADDRINUSE`, `EADDRNOTAVAIL`, …; `sendto`), or a
    /// receive error ended the socket.
    case system(SystemCallError)
    /// The socket was closed before the call, or while it waited.
    case closed
    /// The calling task was cancelled before the datagram was sent.
    case cancelled

    public var description: String {
        switch self {
        case .address(let error):
            return error.description
        case .system(let error) where error.name == "EADDRINUSE":
            return "\(error). Another program listens on that port; pick another port, or 0 for any free one."
        case .system(let error) where error.name == "EADDRNOTAVAIL":
            return "\(error). No interface of this computer has that address; bind to one it has (e.g. 127.0.0.1)."
        case .system(let error):
            return "\(error)."
        case .closed:
            return "the UDP socket is closed."
        case .cancelled:
            return "the send was cancelled before the datagram left."
        }
    }
}
