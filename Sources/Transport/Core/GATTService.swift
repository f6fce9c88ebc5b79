/// One service of a device's GATT database as a link sees it after discovery.
public struct GATTService: Hashable, Sendable {
    public var id: ServiceID
    public var characteristics: [GATTCharacteristic]

    public init(_ id: ServiceID, characteristics: [GATTCharacteristic]) {
        self.id = id
        self.characteristics = characteristics
    }
}

/// One characteristic and what it allows.
public struct GATTCharacteristic: Hashable, Sendable {
    public var id: CharacteristicID
    public var properties: CharacteristicProperties

    public init(_ id: CharacteristicID, properties: CharacteristicProperties) {
        self.id = id
        self.properties = properties
    }
}
