/// A GATT service, named by its UUID. A distinct type from `CharacteristicID` so the two cannot be
/// swapped by accident.
public struct ServiceID: Hashable, Sendable, CustomStringConvertible {
    public let uuid: BluetoothUUID

    public init(_ uuid: BluetoothUUID) { self.uuid = uuid }

    /// A SIG-assigned service, e.g. `ServiceID(short: 0x180F)` (Battery Service).
    public init(short value: UInt16) { uuid = BluetoothUUID(short: value) }

    /// Parses any form `BluetoothUUID(string:)` accepts.
    public init?(_ string: String) {
        guard let uuid = BluetoothUUID(string: string) else { return nil }
        self.uuid = uuid
    }

    public var description: String { uuid.description }
}
