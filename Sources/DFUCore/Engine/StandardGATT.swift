import Transport

/// The Bluetooth SIG services every protocol reads the same way (assigned numbers): the battery
/// level for the battery precondition and the firmware revision a device reports about itself.
public enum StandardGATT {
    public static let batteryService = ServiceID(short: 0x180F)
    public static let batteryLevel = CharacteristicID(short: 0x2A19)
    public static let deviceInformationService = ServiceID(short: 0x180A)
    public static let firmwareRevision = CharacteristicID(short: 0x2A26)

    /// `characteristic` of `service` as discovered, if the device has it. Every instance of the
    /// service is searched: a device may have two, e.g. a Linux peripheral where bluetoothd's own
    /// Device Information (PnP ID only) comes before the application's (with the firmware revision).
    static func find(_ characteristic: CharacteristicID, in service: ServiceID,
                     of services: [GATTService]) -> GATTCharacteristic? {
        services.lazy.filter { $0.id == service }.compactMap { $0.characteristics.first { $0.id == characteristic } }.first
    }
}
