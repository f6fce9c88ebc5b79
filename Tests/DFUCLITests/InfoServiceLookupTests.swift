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
            GATTService(UpdateGATT.deviceInformationService, characteristics: [GATTCharacteristic(Self.pnpID, properties: [.read])]),
            GATTService(UpdateGATT.smpService, characteristics: [
                GATTCharacteristic(UpdateGATT.smpCharacteristic, properties: [.writeWithoutResponse, .notify]),
            ]),
            GATTService(UpdateGATT.deviceInformationService, characteristics: [
                GATTCharacteristic(UpdateGATT.firmwareRevision, properties: [.read]),
            ]),
        ]
        let found = UpdateGATT.find(UpdateGATT.firmwareRevision, in: UpdateGATT.deviceInformationService, of: services)
        #expect(found?.id == UpdateGATT.firmwareRevision)
        #expect(UpdateGATT.find(Self.pnpID, in: UpdateGATT.deviceInformationService, of: services)?.id == Self.pnpID)
        // Only inside the named service: the SMP characteristic is not Device Information's.
        #expect(UpdateGATT.find(UpdateGATT.smpCharacteristic, in: UpdateGATT.deviceInformationService, of: services) == nil)
        #expect(UpdateGATT.find(UpdateGATT.batteryLevel, in: UpdateGATT.batteryService, of: services) == nil)
    }
}
#endif
