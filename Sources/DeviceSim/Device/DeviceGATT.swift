import Transport

/// The virtual device's GATT database: SMP (Zephyr's service and its one write-without-response +
/// notify characteristic), Battery Service and Device Information's firmware revision.
public enum DeviceGATT {
    public static let smpService = ServiceID(BluetoothUUID(high: 0x8D53_DC1D_1DB7_4CD3, low: 0x868B_8A52_7460_AA84))
    public static let smpCharacteristic = CharacteristicID(BluetoothUUID(high: 0xDA2E_7828_FBCE_4E01,
                                                                         low: 0xAE9E_2611_7499_7C48))
    public static let batteryService = ServiceID(short: 0x180F)
    public static let batteryLevel = CharacteristicID(short: 0x2A19)
    public static let deviceInformationService = ServiceID(short: 0x180A)
    public static let firmwareRevision = CharacteristicID(short: 0x2A26)

    public static let services: [GATTService] = [
        GATTService(smpService, characteristics: [
            GATTCharacteristic(smpCharacteristic, properties: [.writeWithoutResponse, .notify]),
        ]),
        GATTService(batteryService, characteristics: [
            GATTCharacteristic(batteryLevel, properties: [.read, .notify]),
        ]),
        GATTService(deviceInformationService, characteristics: [
            GATTCharacteristic(firmwareRevision, properties: [.read]),
        ]),
    ]
}
