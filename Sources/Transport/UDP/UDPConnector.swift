import Synchronization
import Transport

/// Opens `UDPLink`s to servers named by `HOST:PORT` (or `udp:HOST:PORT`) peer identities:
/// `127.0.0.1:1337`, `[::1]:1337`, `device.local:1337`.
///
/// Each `connect` resolves the name again (a device may come back at another address after a
/// reboot) and hands out a new link with the next generation, starting at 1, so the engine can drop
/// events of the link it had before the device reset. A name with several addresses is reached at
/// the first in the resolver's order. Connecting sends nothing: whether a server listens shows on
/// the link's first write (see `UDPLink`).
public final class UDPConnector: Connector {
    /// Every link's `maxWriteWithoutResponse` (see `UDPLink.defaultMaxDatagramSize`).
    public let maxDatagramSize: Int
    /// What every link shows itself as; the protocol above names its UUIDs.
    public let face: DatagramGATTFace
    private let lastGeneration = Mutex(LinkGeneration(0))

    /// How long to wait before asking a name server that did not answer again, at first and at most.
    private static let firstRetryDelay = Duration.milliseconds(100)
    private static let longestRetryDelay = Duration.seconds(2)

    public init(presenting face: DatagramGATTFace, maxDatagramSize: Int = UDPLink.defaultMaxDatagramSize) {
        self.face = face
        self.maxDatagramSize = maxDatagramSize
    }

    /// The generation of the newest link this connector made (0 before the first).
    public var latestGeneration: LinkGeneration { lastGeneration.withLock { $0 } }

    /// Parses the text of a peer identity, with or without the `udp:` prefix.
    public static func target(of peer: PeerIdentity) throws(UDPAddressError) -> HostAndPort {
        let text = peer.rawValue.hasPrefix("udp:") ? String(peer.rawValue.dropFirst(4)) : peer.rawValue
        let target = try HostAndPort(parsing: text)
        guard target.port != 0 else { throw .malformed(text, reason: "port 0 names no server") }
        return target
    }

    /// Throws `.peerNotFound` when `peer` is not a valid `HOST:PORT` (port 1–65535), `.unavailable`
    /// (saying which name, and what to do) when the name does not resolve, `.timeout` when the name server stays silent until `deadline`, `.cancelled` when
    /// the task is cancelled, `.backend` when the system refuses a socket.
    public func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        if Task.isCancelled { throw .cancelled }
        let target: HostAndPort
        do throws(UDPAddressError) {
            target = try Self.target(of: peer)
        } catch {
            throw .peerNotFound(peer)
        }
        let address = try await resolve(target, peer: peer, deadline: deadline)
        let generation = lastGeneration.withLock { last in
            last = last.next
            return last
        }
        return try UDPLink.connect(to: address, presenting: face, as: peer, generation: generation, maxDatagramSize: maxDatagramSize)
    }

    /// Asks again, with doubling pauses, while the name server does not answer; a definite "no
    /// such host" ends at once.
    private func resolve(_ target: HostAndPort, peer: PeerIdentity,
                         deadline: ContinuousClock.Instant) async throws(LinkError) -> SocketAddress {
        var delay = Self.firstRetryDelay
        while true {
            switch await HostResolver.resolve(target, deadline: deadline) {
            case .success(let addresses):
                guard let first = addresses.first else { throw .peerNotFound(peer) }
                return first
            case .failure(.cancelled):
                throw .cancelled
            case .failure(.timedOut):
                throw .timeout
            case .failure(.address(.resolverUnavailable)):
                guard ContinuousClock.now.advanced(by: delay) < deadline else { throw .timeout }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw .cancelled
                }
                delay = min(delay * 2, Self.longestRetryDelay)
            case .failure(.address(let error)):
                // Retrying cannot make a name exist; the user must correct it.
                throw .unavailable(error.description)
            }
        }
    }
}
