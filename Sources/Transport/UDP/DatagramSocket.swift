import Transport

/// One non-blocking UDP socket: received datagrams go to `deliver`, sends wait for writability.
/// The shared core of `UDPLink` (connected to one server) and `UDPServerSocket` (bound, any sender).
/// It knows datagrams, not what they carry. Reading, writing and ending are the `FDPump`'s; this type opens the
/// socket, says what its errors mean, and names every datagram's sender.
///
/// The pump's thread holds the socket until it ends: an owner must call `close()` (its `deinit` does).
final class DatagramSocket: Sendable {
    /// Whom the socket talks to.
    enum Role: Sendable {
        /// Only `server`: sends need no address, the kernel drops datagrams from anyone else, and
        /// ICMP errors come back as `recv`/`send` errors.
        case connected(to: SocketAddress)
        /// Anyone who sends to `local` (port 0: a port the kernel picks).
        case bound(to: SocketAddress)
    }

    enum Event: Sendable {
        case datagram([UInt8], from: SocketAddress)
        /// The last event: the socket is closed.
        case ended(End)
    }

    /// Why the socket ended. `.hangUp` cannot happen on UDP (no peer closes a UDP socket).
    typealias End = FDPumpEnd
    /// `.refused` (one datagram failed, the socket stays open) only for a bound socket: a connected
    /// one ends on any send error, since it has no other peer to serve.
    typealias SendFailure = FDPumpSendFailure

    /// The bound address (with the port the kernel chose for port 0).
    let localAddress: SocketAddress
    /// The fixed peer of a connected socket; nil for a bound one, which takes any sender.
    let remoteAddress: SocketAddress?
    private let pump: FDPump

    /// More than any UDP payload (65,507 bytes over IPv4, 65,527 over IPv6), so none is cut.
    private static let receiveBufferSize = 65_536

    private init(pump: FDPump, localAddress: SocketAddress, remoteAddress: SocketAddress?) {
        self.pump = pump
        self.localAddress = localAddress
        self.remoteAddress = remoteAddress
    }

    /// Opens the socket and starts its pump; events start at once.
    static func open(_ role: Role, deliver: @escaping @Sendable (Event) -> Void) throws(SystemCallError)
        -> DatagramSocket {
        let family: Int32
        switch role {
        case .connected(let address), .bound(let address): family = address.family
        }
        let descriptor = try SystemCall.openDatagramSocket(family: family)
        let remote: SocketAddress?
        let local: SocketAddress
        do throws(SystemCallError) {
            switch role {
            case .connected(let server):
                try SystemCall.connectSocket(descriptor, to: server)
                remote = server
            case .bound(let address):
                try SystemCall.bindSocket(descriptor, to: address)
                remote = nil
            }
            local = try SystemCall.localAddress(descriptor)
        } catch {
            SystemCall.closeDescriptor(descriptor)
            throw error
        }
        // A bound socket serves many senders; an ICMP error about one must not end it.
        let policy = FDPumpPolicy(receiveBufferSize: receiveBufferSize, servesManyPeers: remote == nil)
        let pump = try FDPump.start(owning: descriptor, policy: policy) { event in
            switch event {
            case .received(let bytes, let sender):
                // A sender of another family cannot reach an IPv4/IPv6 socket; skip rather than trap.
                guard let sender = sender ?? remote else { return }
                deliver(.datagram(bytes, from: sender))
            case .ended(let end):
                deliver(.ended(end))
            }
        }
        return DatagramSocket(pump: pump, localAddress: local, remoteAddress: remote)
    }

    /// Why the socket ended; nil while it is open.
    var end: End? { pump.end }

    /// Ends the socket: queued sends fail with `.ended(.closed)`, `deliver` gets `.ended(.closed)`.
    /// Calling it again does nothing.
    func close() {
        pump.close()
    }

    /// `close()`, then waits until the descriptor is closed, so the port is free for others.
    func closeAndWait() async {
        await pump.closeAndWait()
    }

    /// Sends one datagram (to the connected peer when `destination` is nil). Returns once the kernel
    /// took it; suspends while the send buffer is full, and sends in call order.
    func send(_ bytes: [UInt8], to destination: SocketAddress?) async -> Result<Void, SendFailure> {
        await pump.send(bytes, to: destination)
    }
}
