/// The GATT face a datagram or byte-stream link shows (`UDPLink`, `SerialLink`): one service with
/// one characteristic that datagrams or bytes are written to and arrive from as its notifications,
/// so the protocol above drives such a transport as it drives Bluetooth. The protocol names the UUIDs (DFUCore for SMP):
/// Transport knows no firmware.
public struct DatagramGATTFace: Hashable, Sendable {
    public var service: ServiceID
    public var characteristic: CharacteristicID

    public init(service: ServiceID, characteristic: CharacteristicID) {
        self.service = service
        self.characteristic = characteristic
    }

    /// Write without response and notify: no read, no write request.
    public static let properties: CharacteristicProperties = [.writeWithoutResponse, .notify]

    /// The one service the link reports.
    public var services: [GATTService] {
        [GATTService(service, characteristics: [GATTCharacteristic(characteristic, properties: Self.properties)])]
    }
}
