// In-process tests of the `dfu` executable target (see DeviceSpecTests.swift for the condition).
#if DFU_CLI_UNIT_TESTS
@testable import DFUCore
import Testing
import Transport

/// Where `dfu info` (and `flash`) look for the battery and firmware revision. Measured on the rig:
/// bluetoothd on a Linux peripheral serves its own Device Information (PnP ID only) before the
/// application's, so the device has two 0x180A services and the firmware revision is in the second.
@Suite struct InfoServiceLookupTests {
    static let pnpID = CharacteristicID(short: 0x2A50)

    @Test func firmwareRevisionIsFoundInASecondDeviceInformationService() {
        let services = [
            GATTService(StandardGATT.deviceInformationService, characteristics: [GATTCharacteristic(Self.pnpID, properties: [.read])]),
            GATTService(SMPGATT.service, characteristics: [
                GATTCharacteristic(SMPGATT.characteristic, properties: [.writeWithoutResponse, .notify]),
            ]),
            GATTService(StandardGATT.deviceInformationService, characteristics: [
                GATTCharacteristic(StandardGATT.firmwareRevision, properties: [.read]),
            ]),
        ]
        let found = StandardGATT.find(StandardGATT.firmwareRevision, in: StandardGATT.deviceInformationService, of: services)
        #expect(found?.id == StandardGATT.firmwareRevision)
        #expect(StandardGATT.find(Self.pnpID, in: StandardGATT.deviceInformationService, of: services)?.id == Self.pnpID)
        // Only inside the named service: the SMP characteristic is not Device Information's.
        #expect(StandardGATT.find(SMPGATT.characteristic, in: StandardGATT.deviceInformationService, of: services) == nil)
        #expect(StandardGATT.find(StandardGATT.batteryLevel, in: StandardGATT.batteryService, of: services) == nil)
    }
}
#endif
