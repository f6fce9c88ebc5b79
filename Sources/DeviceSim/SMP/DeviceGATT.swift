import DFUCore
import Transport

/// The virtual device's GATT database: SMP (Zephyr's service and its one write-without-response +
/// notify characteristic), Battery Service and Device Information's firmware revision.
public enum DeviceGATT {
    // The UUIDs are DFUCore's, defined once per protocol (SMPGATT) and for the SIG services.
    public static let smpService = SMPGATT.service
    public static let smpCharacteristic = SMPGATT.characteristic
    public static let batteryService = StandardGATT.batteryService
    public static let batteryLevel = StandardGATT.batteryLevel
    public static let deviceInformationService = StandardGATT.deviceInformationService
    public static let firmwareRevision = StandardGATT.firmwareRevision

    public static let services: [GATTService] = [
        GATTService(smpService, characteristics: [
            GATTCharacteristic(smpCharacteristic, properties: SMPGATT.properties),
        ]),
        GATTService(batteryService, characteristics: [
            GATTCharacteristic(batteryLevel, properties: [.read, .notify]),
        ]),
        GATTService(deviceInformationService, characteristics: [
            GATTCharacteristic(firmwareRevision, properties: [.read]),
        ]),
    ]
}
