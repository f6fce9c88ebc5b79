import DFUCore
import DeviceSim
import NordicTestSupport
import Testing
import Transport

/// How the virtual nRF52 comes back after a system part, as the SDK's bootloader does (SDK 15
/// `nrf_bootloader_fw_activation.c`, `nrf_bootloader.c`): after a SoftDevice (with a bootloader)
/// it stays in DFU mode for the application, for the continuation timeout; after a bootloader
/// alone it starts the application, which is still valid.
@Suite struct NordicSystemPartBootTests {
    typealias Rig = NordicVirtualDeviceTests.Rig

    static func image(_ part: NordicTestPackage.Part) throws -> NordicPackage.Image {
        try #require(try NordicPackage(zipBytes: NordicTestPackage([part]).bytes).images.first)
    }

    @Test func aSoftDeviceBootloaderUpdateComesBackInDFUModeForTheContinuationTimeout() throws {
        var rig = try Rig()
        _ = rig.enterBootloader()
        #expect(rig.update(try Self.image(.softDeviceBootloader(version: 2))).last == [0x60, 0x04, 0x01])
        #expect(rig.wake() == [.online(PeerIdentity("C0:11:22:33:44:00"), name: "DfuTarg")])
        #expect(rig.device.gattServices == NordicDeviceGATT.bootloader)
        #expect(rig.device.currentSettings.bootloaderVersion == 2)
        #expect(rig.device.applicationVersion == 1, "a system part leaves app_version alone")
        let back = rig.now
        #expect(rig.wake() == [.bootloader(.reset(.inactivity)), .offline(PeerIdentity("C0:11:22:33:44:00"))])
        #expect(rig.now == back.advanced(by: .seconds(10)), "NRF_BL_DFU_CONTINUATION_TIMEOUT_MS, not the 120 s inactivity")
        #expect(rig.wake() == [.online(PeerIdentity("C0:11:22:33:44:FF"), name: nil)])
    }

    @Test func aBootloaderUpdateStartsTheApplication() throws {
        var rig = try Rig()
        _ = rig.enterBootloader()
        #expect(rig.update(try Self.image(.sampleBootloader())).last == [0x60, 0x04, 0x01])
        #expect(rig.wake() == [.online(PeerIdentity("C0:11:22:33:44:FF"), name: nil)])
        #expect(rig.device.currentSettings.bootloaderVersion == 2)
        #expect(rig.device.applicationVersion == 1)
    }

    @Test func theSameBootloaderAgainIsRefusedAsNotNewer() throws {
        var rig = try Rig("sim:protocol=nordic,id=C0:11:22:33:44:FF,bl_version=2")
        _ = rig.enterBootloader()
        // Extended error FW VERSION TOO LOW (0x05) at Execute(command): a bootloader must be newer.
        #expect(rig.update(try Self.image(.softDeviceBootloader(version: 2))).first == [0x60, 0x04, 0x0B, 0x05])
    }
}
