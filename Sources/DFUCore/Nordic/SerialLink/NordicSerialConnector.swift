import Transport

/// Opens Nordic Secure DFU links on serial ports: each byte link the base connector makes
/// (`SerialConnector`) is pinged until its bootloader answers, then asked its MTU, and only then
/// handed out as a `NordicSerialLink` (keeping its generation), as pc-nrfutil opens a port
/// (`DfuTransportSerial.open`: ping until answered, Set PRN, Get MTU; the transfer core sets the
/// PRN itself). The bootloader's first answer is the connect, as over UDP: a port that opens but
/// stays silent is no device.
public struct NordicSerialConnector: Connector {
    public let base: any Connector
    /// The characteristic the byte links carry their bytes on (the face the byte connector shows).
    public let byteCharacteristic: CharacteristicID
    /// How long one ping waits before the next is sent: short, so a bootloader that comes up (or
    /// a line that ate the first ping) is found soon; the connect deadline bounds them all.
    public let pingTimeout: Duration
    private let observer: @Sendable (NordicSerialLink.Note) -> Void

    public init(wrapping base: any Connector, byteCharacteristic: CharacteristicID = NordicSerialLink.byteFace.characteristic,
                pingTimeout: Duration = .milliseconds(500),
                observer: @escaping @Sendable (NordicSerialLink.Note) -> Void = { _ in }) {
        self.base = base
        self.byteCharacteristic = byteCharacteristic
        self.pingTimeout = pingTimeout
        self.observer = observer
    }

    /// Throws what the byte connector throws; `.disconnected` when the port went away before the
    /// bootloader answered (a USB port re-enumerating: worth another try); `.unavailable` when it
    /// stayed silent until `deadline`, refused Get MTU, or reports an MTU too small for a packet.
    public func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        let byteLink = try await base.connect(to: peer, deadline: deadline)
        let channel = NordicSerialChannel(wrapping: byteLink, byteCharacteristic: byteCharacteristic, observer: observer)
        do throws(LinkError) {
            try await byteLink.subscribe(byteCharacteristic)
            try await awaitPing(channel, peer: peer, until: deadline)
            let mtu = try await askMTU(channel, peer: peer, until: deadline)
            guard let link = NordicSerialLink(channel: channel, mtu: mtu),
                  link.payload >= NordicTransferConfiguration.minimumPacketSize else {
                throw .unavailable("\(peer.rawValue) reports a serial MTU of \(mtu) bytes, too small for a Write Object of "
                                   + "\(NordicTransferConfiguration.minimumPacketSize) bytes; it is no nRF5 SDK serial bootloader (UART 131, USB 2051).")
            }
            return link
        } catch {
            await byteLink.disconnect()
            throw error
        }
    }

    /// A serial port is one device: the first peer is the port. Any other (a Bluetooth name a
    /// journal kept) cannot be reached on it.
    public func connect(toAnyOf peers: [PeerIdentity],
                        deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        guard let peer = peers.first else { throw .peerNotFound(PeerIdentity("")) }
        return (peer, try await connect(to: peer, deadline: deadline))
    }

    private func awaitPing(_ channel: NordicSerialChannel, peer: PeerIdentity,
                           until deadline: ContinuousClock.Instant) async throws(LinkError) {
        while true {
            if Task.isCancelled { throw .cancelled }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw .unavailable("\(peer.rawValue) opened but nothing answered Nordic DFU pings there before the connect "
                                   + "deadline: check that the device runs its serial DFU bootloader (DFU mode) and the baud "
                                   + "rate, or allow more time with --connect-timeout.")
            }
            switch await channel.ping(timeout: min(pingTimeout, left)) {
            case .answered: return
            case .silent: continue
            case .gone: throw .disconnected(.other("the serial port \(peer.rawValue) went away before its bootloader answered"))
            }
        }
    }

    /// Get MTU, asked again while unanswered (the line may lose an answer) until `deadline`.
    private func askMTU(_ channel: NordicSerialChannel, peer: PeerIdentity,
                        until deadline: ContinuousClock.Instant) async throws(LinkError) -> UInt16 {
        while true {
            if Task.isCancelled { throw .cancelled }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw .unavailable("the bootloader on \(peer.rawValue) answered a ping but not Get MTU before the connect deadline.")
            }
            switch await channel.mtu(timeout: min(pingTimeout, left)) {
            case .answered(.mtu(let size)): return size
            case .answered(let other):
                throw .unavailable("the bootloader on \(peer.rawValue) refused Get MTU (\(other)); dfu needs it to size its "
                                   + "Write Objects (a bootloader older than nRF5 SDK 15 has no such request).")
            case .silent: continue
            case .gone: throw .disconnected(.other("the serial port \(peer.rawValue) went away before its bootloader answered"))
            }
        }
    }
}
