import Transport

/// A `Link` to a server over UDP (such as Zephyr's `CONFIG_MCUMGR_TRANSPORT_UDP`, or smpclient's
/// UDP transport): a connected UDP socket dressed as one GATT characteristic (`DatagramGATTFace`,
/// which the protocol above names), so that protocol drives UDP as it drives Bluetooth.
///
/// - `writeWithoutResponse(_, to: characteristic)` sends ONE datagram; it suspends while the
///   kernel's send buffer is full (never drops, never sleeps). One message must be one datagram,
///   which `parameters.writesAreWholeMessages` tells the layer above.
/// - Every datagram received becomes `.notification(characteristic, bytes)`. Notifications need no
///   subscription on UDP; `subscribe(characteristic)` succeeds so callers stay transport-agnostic.
/// - UDP has no connection: the link is "up" until `disconnect()`, a send or receive error, or an
///   ICMP port-unreachable (`ECONNREFUSED`), reported as `.disconnected(.other("nothing listens at
///   HOST:PORT …"))`. A silent peer (no ICMP) is only noticed by the caller's reply deadlines.
/// - Letting the last reference go disconnects.
public final class UDPLink: Link {
    /// The largest datagram smpclient sends: a 1,500-byte Ethernet MTU minus the IPv4 (20) and UDP
    /// (8) headers, so no IP fragmentation. Zephyr's `CONFIG_MCUMGR_TRANSPORT_UDP_MTU` defaults to
    /// 1,500 and cuts longer datagrams at that size.
    public static let defaultMaxDatagramSize = 1472
    /// The most one IPv4 UDP datagram carries (65,535 − 20 − 8).
    public static let largestDatagramSize = 65_507

    /// `attMTU` is `maxDatagramSize + 3`: there is no ATT on UDP, but callers that size writes as
    /// `attMTU − 3` get the datagram limit. `phy`, `connectionInterval`, `llPayload` and
    /// `writeCommandCeiling` are nil; `writesAreWholeMessages` is true.
    public let parameters: LinkParameters
    public let services: [GATTService]
    /// The characteristic datagrams are written to and arrive from.
    private let characteristic: CharacteristicID
    public let events: AsyncStream<LinkEvent>
    /// The server's address as resolved.
    public let remoteAddress: SocketAddress
    /// This end's address (the ephemeral port the kernel chose).
    public var localAddress: SocketAddress { socket.localAddress }
    private let socket: DatagramSocket

    private init(parameters: LinkParameters, face: DatagramGATTFace, events: AsyncStream<LinkEvent>,
                 remoteAddress: SocketAddress, socket: DatagramSocket) {
        self.parameters = parameters
        services = face.services
        characteristic = face.characteristic
        self.events = events
        self.remoteAddress = remoteAddress
        self.socket = socket
    }

    deinit { socket.close() }

    /// Opens a UDP socket connected to `address`, shown as `face`. Sends nothing, so it succeeds whether or not a
    /// server listens; the first write finds out. `peer` defaults to the address's text;
    /// `maxDatagramSize` is clamped to 1…65,507. Throws `.backend` when the system refuses the
    /// socket (e.g. no IPv6 on this host, or too many open files).
    public static func connect(to address: SocketAddress, presenting face: DatagramGATTFace, as peer: PeerIdentity? = nil,
                               generation: LinkGeneration = LinkGeneration(1),
                               maxDatagramSize: Int = defaultMaxDatagramSize) throws(LinkError) -> UDPLink {
        let limit = min(max(maxDatagramSize, 1), largestDatagramSize)
        let parameters = LinkParameters(generation: generation, peer: peer ?? PeerIdentity(address.description),
                                        attMTU: limit + 3, maxWriteWithoutResponse: limit,
                                        writesAreWholeMessages: true, isConnectionless: true)
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        let characteristic = face.characteristic
        do throws(SystemCallError) {
            let socket = try DatagramSocket.open(.connected(to: address)) { event in
                switch event {
                case .datagram(let bytes, _):
                    continuation.yield(LinkEvent(generation: generation, kind: .notification(characteristic, bytes)))
                case .ended(let end):
                    continuation.yield(LinkEvent(generation: generation,
                                                 kind: .disconnected(Self.reason(end, address: address))))
                    continuation.finish()
                }
            }
            return UDPLink(parameters: parameters, face: face, events: events, remoteAddress: address, socket: socket)
        } catch {
            continuation.finish()
            throw .backend("could not open a UDP socket to \(address): \(error)")
        }
    }

    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
        guard bytes.count <= parameters.maxWriteWithoutResponse else {
            throw .payloadTooLarge(size: bytes.count, limit: parameters.maxWriteWithoutResponse)
        }
        switch await socket.send(bytes, to: nil) {
        case .success: return
        case .failure(.cancelled): throw .cancelled
        case .failure(.ended(let end)): throw .disconnected(Self.reason(end, address: remoteAddress))
        case .failure(.refused(let error)):
            // A connected socket ends on send errors instead; kept total rather than trapping.
            throw .disconnected(Self.reason(.failed(error), address: remoteAddress))
        }
    }

    /// The characteristic allows no write request (a datagram is a write without response, as
    /// Zephyr's UDP transport declares it).
    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
        throw .notSupported(characteristic, missing: .write)
    }

    /// Nothing is readable over UDP: the characteristic has no read, and there is no other.
    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
        throw .notSupported(characteristic, missing: .read)
    }

    /// Succeeds at once for the characteristic: datagrams are delivered whether or not anyone
    /// subscribed, as a UDP server (Zephyr's) replies to whoever sent the request.
    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
    }

    /// Closes the socket; `events` ends with `.disconnected(.localHostTerminated)`. Returns once the
    /// descriptor is closed.
    public func disconnect() async {
        await socket.closeAndWait()
    }

    private func checkOpen() throws(LinkError) {
        if let end = socket.end { throw .disconnected(Self.reason(end, address: remoteAddress)) }
    }

    /// The link's words for why the socket ended.
    static func reason(_ end: DatagramSocket.End, address: SocketAddress) -> DisconnectReason {
        switch end {
        case .closed:
            return .localHostTerminated
        case .hangUp:
            // The pump's word for a peer that closed its end; no UDP peer can, so kept total only.
            return .other("the UDP socket to \(address) was shut down")
        case .failed(let error) where error.isConnectionRefused:
            return .other("nothing listens at \(address): the host answered ICMP port unreachable (\(error.name)). "
                + "Check that the server runs and listens on that port")
        case .failed(let error):
            return .other("UDP to \(address) failed: \(error)")
        }
    }
}
