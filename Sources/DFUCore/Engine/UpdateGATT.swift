import Transport

/// The GATT items an update uses (smp-mcuboot.md §1; Bluetooth SIG assigned numbers). Defined here
/// rather than taken from DeviceSim: the engine talks to any device, the virtual one included.
enum UpdateGATT {
    /// Zephyr's SMP service, `8D53DC1D-1DB7-4CD3-868B-8A527460AA84`.
    static let smpService = ServiceID(BluetoothUUID(high: 0x8D53_DC1D_1DB7_4CD3, low: 0x868B_8A52_7460_AA84))
    /// Its one characteristic: requests as Write Commands, responses as notifications.
    static let smpCharacteristic = SMPSession.characteristic
    /// What the SMP characteristic must allow.
    static let smpProperties: CharacteristicProperties = [.writeWithoutResponse, .notify]
    static let batteryService = ServiceID(short: 0x180F)
    static let batteryLevel = CharacteristicID(short: 0x2A19)
    static let deviceInformationService = ServiceID(short: 0x180A)
    static let firmwareRevision = CharacteristicID(short: 0x2A26)

    /// `characteristic` of `service` as discovered, if the device has it. Every instance of the
    /// service is searched: a device may have two, e.g. a Linux peripheral where bluetoothd's own
    /// Device Information (PnP ID only) comes before the application's (with the firmware revision).
    static func find(_ characteristic: CharacteristicID, in service: ServiceID,
                     of services: [GATTService]) -> GATTCharacteristic? {
        services.lazy.filter { $0.id == service }.compactMap { $0.characteristics.first { $0.id == characteristic } }.first
    }

    /// Nil when `services` carry SMP as an update needs it; else what is missing, for the error.
    static func smpProblem(in services: [GATTService]) -> String? {
        guard services.contains(where: { $0.id == smpService }) else {
            return "it has no SMP service (\(smpService)); it does not run MCUmgr over Bluetooth, or its firmware lacks the SMP transport"
        }
        guard let characteristic = find(smpCharacteristic, in: smpService, of: services) else {
            return "its SMP service lacks the SMP characteristic (\(smpCharacteristic))"
        }
        let missing = smpProperties.subtracting(characteristic.properties)
        guard missing.isEmpty else {
            return "its SMP characteristic does not allow \(missing); MCUmgr needs write without response and notify"
        }
        return nil
    }
}
