/// A GATT characteristic, named by its UUID. A device that repeats a characteristic UUID in two
/// services is not supported: links resolve an ID to its first occurrence.
public struct CharacteristicID: Hashable, Sendable, CustomStringConvertible {
    public let uuid: BluetoothUUID

    public init(_ uuid: BluetoothUUID) { self.uuid = uuid }

    /// A SIG-assigned characteristic, e.g. `CharacteristicID(short: 0x2A19)` (Battery Level).
    public init(short value: UInt16) { uuid = BluetoothUUID(short: value) }

    /// Parses any form `BluetoothUUID(string:)` accepts.
    public init?(_ string: String) {
        guard let uuid = BluetoothUUID(string: string) else { return nil }
        self.uuid = uuid
    }

    public var description: String { uuid.description }
}
