import Transport

/// A UDP socket bound to a local address that receives datagrams from anyone and answers each
/// sender: the server end, e.g. the virtual device served over UDP. Generic: it knows datagrams
/// and addresses, not the protocol they carry.
///
///     let server = try await UDPServerSocket.bind("127.0.0.1:0")   // port 0: any free port
///     print(server.localAddress)                                   // 127.0.0.1:40123
///     for await datagram in server.datagrams {
///         try await server.send(reply(to: datagram.bytes), to: datagram.sender)
///     }
///
/// Letting the last reference go closes the socket (the port is released a moment later).
public final class UDPServerSocket: Sendable {
    /// One datagram and who sent it (the address to answer).
    public struct Datagram: Hashable, Sendable {
        public let bytes: [UInt8]
        public let sender: SocketAddress

        public init(bytes: [UInt8], sender: SocketAddress) {
            self.bytes = bytes
            self.sender = sender
        }
    }

    /// The bound address, with the port the kernel chose when asked for port 0.
    public var localAddress: SocketAddress { socket.localAddress }
    /// Datagrams in arrival order, for ONE consumer; buffered without limit; finishes when the
    /// socket closes (then `failure` says whether an error closed it).
    public let datagrams: AsyncStream<Datagram>
    private let socket: DatagramSocket

    private init(socket: DatagramSocket, datagrams: AsyncStream<Datagram>) {
        self.socket = socket
        self.datagrams = datagrams
    }

    deinit { socket.close() }

    /// Binds to `address` (port 0 for any free port).
    public static func bind(to address: SocketAddress) throws(UDPSocketError) -> UDPServerSocket {
        let (datagrams, continuation) = AsyncStream.makeStream(of: Datagram.self)
        do throws(SystemCallError) {
            let socket = try DatagramSocket.open(.bound(to: address)) { event in
                switch event {
                case .datagram(let bytes, let sender): continuation.yield(Datagram(bytes: bytes, sender: sender))
                case .ended: continuation.finish()
                }
            }
            return UDPServerSocket(socket: socket, datagrams: datagrams)
        } catch {
            continuation.finish()
            throw .system(error)
        }
    }

    /// Parses `HOST:PORT` / `[IPv6]:PORT`, resolves a name to its first address, and binds there.
    public static func bind(_ text: String) async throws(UDPSocketError) -> UDPServerSocket {
        let target: HostAndPort
        do throws(UDPAddressError) {
            target = try HostAndPort(parsing: text)
        } catch {
            throw .address(error)
        }
        switch await HostResolver.resolve(target) {
        case .success(let addresses):
            guard let first = addresses.first else { throw .address(.unknownHost(target.hostText, reason: "no address")) }
            return try bind(to: first)
        case .failure(.address(let error)): throw .address(error)
        case .failure(.cancelled), .failure(.timedOut): throw .cancelled
        }
    }

    /// Sends one datagram to `receiver`; suspends while the kernel's send buffer is full, and sends
    /// in call order. A failure for this receiver leaves the socket open for others.
    public func send(_ bytes: [UInt8], to receiver: SocketAddress) async throws(UDPSocketError) {
        switch await socket.send(bytes, to: receiver) {
        case .success: return
        case .failure(.cancelled): throw .cancelled
        case .failure(.refused(let error)), .failure(.ended(.failed(let error))): throw .system(error)
        case .failure(.ended(.closed)), .failure(.ended(.hangUp)): throw .closed
        }
    }

    /// Closes the socket: `datagrams` finishes, waiting sends fail with `.closed`; returns once the
    /// port is released (so it can be bound again at once). Idempotent.
    public func close() async {
        await socket.closeAndWait()
    }

    /// The receive error that closed the socket; nil while open or after `close()`.
    public var failure: SystemCallError? {
        if case .failed(let error) = socket.end { return error }
        return nil
    }
}
