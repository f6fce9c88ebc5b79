import Transport
import UDPTransport

/// Why `VirtualDeviceUDPServer.serve` could not start: the device options, or the socket.
public enum UDPServeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The options describe no device (a usage error: nothing was bound).
    case options(SimOptionsError)
    /// The address could not be parsed, resolved or bound (in use, not an address of this host).
    case socket(UDPSocketError)

    public var description: String {
        switch self {
        case .options(let error): return error.description
        case .socket(let error): return error.description
        }
    }
}
