import DFUCore
import Transport

/// The two GATT databases of the Nordic virtual device, a simulated nRF52 (nordic-secure-dfu.md
/// §1.1, §1.2), as `DeviceGATT` is the SMP device's; UUIDs from DFUCore's `NordicDFUService`. (What
/// the client expects to find is DFUCore's `NordicGATT`.)
public enum NordicDeviceGATT {
    public static let service = NordicDFUService.service
    public static let controlPoint = NordicDFUService.controlPoint
    public static let packet = NordicDFUService.packet
    public static let buttonless = NordicDFUService.buttonlessWithoutBonds
    public static let batteryLevel = StandardGATT.batteryLevel
    public static let firmwareRevision = StandardGATT.firmwareRevision

    /// The application: buttonless DFU without bonds (Write + Indicate, §1.2), Battery Service,
    /// Device Information. The memory link delivers indications as notifications (no confirmations).
    /// `buttonless` is the without-bonds characteristic; the with-bonds one is 8EC90004.
    public static let application: [GATTService] = application(buttonless: .withoutBonds)

    /// The application with either buttonless service.
    public static func application(buttonless variant: NordicButtonlessVariant) -> [GATTService] {
        [
            GATTService(service, characteristics: [GATTCharacteristic(variant.characteristic, properties: [.write, .indicate])]),
            GATTService(StandardGATT.batteryService, characteristics: [GATTCharacteristic(batteryLevel, properties: [.read, .notify])]),
            GATTService(StandardGATT.deviceInformationService, characteristics: [GATTCharacteristic(firmwareRevision, properties: [.read])]),
        ]
    }

    /// The bootloader in DFU mode: Control Point (write + notify) and Packet (write without response).
    public static let bootloader: [GATTService] = [
        GATTService(service, characteristics: [
            GATTCharacteristic(controlPoint, properties: NordicDFUService.controlPointProperties),
            GATTCharacteristic(packet, properties: NordicDFUService.packetProperties),
        ]),
    ]
}
