import Transport

/// Opens SMP links on serial ports: each link the byte connector makes (`SerialConnector`) is
/// wrapped in an `SMPSerialLink` with the port's framing, keeping its generation, so reconnects
/// after a reset work as on every other transport.
public struct SMPSerialConnector: Connector {
    public let base: any Connector
    /// The characteristic the byte links carry their bytes on (the face the byte connector shows).
    public let byteCharacteristic: CharacteristicID
    public let framing: SMPStreamFraming
    private let observer: @Sendable (SMPSerialLink.Note) -> Void

    public init(wrapping base: any Connector, byteCharacteristic: CharacteristicID, framing: SMPStreamFraming,
                observer: @escaping @Sendable (SMPSerialLink.Note) -> Void = { _ in }) {
        self.base = base
        self.byteCharacteristic = byteCharacteristic
        self.framing = framing
        self.observer = observer
    }

    public func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        let link = try await base.connect(to: peer, deadline: deadline)
        return SMPSerialLink(wrapping: link, byteCharacteristic: byteCharacteristic, framing: framing, observer: observer)
    }
}
