import DFUCore
import DeviceSim
import NordicTestSupport
import Testing

/// The nRF52 flash layouts of SDK 17.1 (`NordicChipLayout`) and the room for an update the
/// bootloader derives from them (`nrf_dfu_cache_prepare`).
@Suite struct NordicChipLayoutTests {
    /// One row of the SDK's linker scripts and bootloader configs, written out here from them.
    struct Expected: Sendable, CustomStringConvertible {
        var chip: NordicChipLayout
        var flash: Int
        var applicationStart: Int
        var bootloaderStart: Int
        var mbrParamsPage: Int
        var settingsPage: Int
        var applicationData: Int
        var softDeviceFWID: UInt32
        var description: String { chip.name }
    }

    static let expected: [Expected] = [
        Expected(chip: .nrf52832, flash: 0x80000, applicationStart: 0x26000, bootloaderStart: 0x78000,
                 mbrParamsPage: 0x7E000, settingsPage: 0x7F000, applicationData: 12288, softDeviceFWID: 0x0101),
        Expected(chip: .nrf52833, flash: 0x80000, applicationStart: 0x27000, bootloaderStart: 0x78000,
                 mbrParamsPage: 0x7E000, settingsPage: 0x7F000, applicationData: 8192, softDeviceFWID: 0x0100),
        Expected(chip: .nrf52840, flash: 0x100000, applicationStart: 0x27000, bootloaderStart: 0xF8000,
                 mbrParamsPage: 0xFE000, settingsPage: 0xFF000, applicationData: 12288, softDeviceFWID: 0x0100),
    ]

    @Test(arguments: expected)
    func eachChipHasTheSDK17LinkerScriptAddresses(_ row: Expected) {
        let chip = row.chip
        #expect(chip.flashSize == row.flash)
        #expect(chip.applicationStart == row.applicationStart)
        #expect(chip.bootloaderStart == row.bootloaderStart)
        #expect(chip.mbrParamsPage == row.mbrParamsPage)
        #expect(chip.settingsPage == row.settingsPage)
        #expect(chip.settingsPage + NordicChipLayout.pageSize == chip.flashSize, "the settings page is the last one")
        #expect(chip.applicationDataSize == row.applicationData)
        #expect(chip.softDeviceFWID == row.softDeviceFWID)
        // BOOTLOADER_SIZE, and the bootloader linker scripts' FLASH LENGTH, is 0x6000 on all three.
        #expect(chip.bootloaderSize == 0x6000)
        #expect(chip.softDeviceSize == row.applicationStart - 0x1000)
        #expect(chip.applicationArea == row.bootloaderStart - row.applicationStart)
        #expect(chip.updateCapacity == row.bootloaderStart - row.applicationData - row.applicationStart)
    }

    @Test func theNRF52840TakesAnUpdateMoreThanTwiceAsLargeAsTheNRF52832() {
        // ble_app_buttonless_dfu's linker script gives the nRF52832 application 0x52000 bytes.
        #expect(NordicChipLayout.nrf52832.applicationArea == 0x52000)
        #expect(NordicChipLayout.nrf52832.updateCapacity == 323_584)
        #expect(NordicChipLayout.nrf52833.updateCapacity == 323_584)
        #expect(NordicChipLayout.nrf52840.updateCapacity == 843_776)
    }

    @Test func chipsAreFoundByTheirOptionNameOnly() {
        #expect(NordicChipLayout.named("nrf52840") == .nrf52840)
        #expect(NordicChipLayout.named("NRF52833") == .nrf52833)
        #expect(NordicChipLayout.named("nrf52810") == nil)
        #expect(NordicChipLayout.named("") == nil)
    }

    // MARK: The bootloader's answer

    /// The Execute(command) answer of a bootloader on `chip` to an application init packet that
    /// announces `size` bytes, its sd_req the chip's SoftDevice.
    func execute(announcing size: Int, on chip: NordicChipLayout, sdk: NordicSDKVersion = .sdk17) throws -> (NordicBench, [UInt8]) {
        var packet = NordicTestInitPacket(firmware: [0x01, 0x02, 0x03, 0x04])
        packet.appSize = UInt32(size)
        packet.sdReq = [chip.softDeviceFWID]
        var bench = NordicBench(try NordicBench.configuration(sdk: sdk, chip: chip))
        let answer = try bench.sendInitPacket(try packet.signed())
        return (bench, answer)
    }

    @Test(arguments: NordicChipLayout.all)
    func anUpdateUpToTheCapacityIsTakenAndALargerOneIsInsufficientResources(_ chip: NordicChipLayout) throws {
        #expect(try execute(announcing: chip.updateCapacity, on: chip).1 == [0x60, 0x04, 0x01])
        // Plain 0x04, as `update_data_addr_get` answers; never the extended INSUFFICIENT SPACE.
        #expect(try execute(announcing: chip.updateCapacity + 4, on: chip).1 == [0x60, 0x04, 0x04])
    }

    @Test func aFourHundredKilobyteApplicationFitsAnNRF52840ButNotAnNRF52832() throws {
        #expect(try execute(announcing: 400 * 1024, on: .nrf52840).1 == [0x60, 0x04, 0x01])
        #expect(try execute(announcing: 400 * 1024, on: .nrf52832).1 == [0x60, 0x04, 0x04])
    }

    @Test(arguments: [NordicSDKVersion.sdk16, .sdk17])
    func sdk16And17ForgetTheInitCommandTheyHadNoRoomFor(_ sdk: NordicSDKVersion) throws {
        var (bench, answer) = try execute(announcing: 0x60000, on: .nrf52832, sdk: sdk)
        #expect(answer == [0x60, 0x04, 0x04])
        // `nrf_dfu_settings_progress_reset`: nothing received, nothing valid.
        #expect(!bench.bootloader.initCommandValid)
        #expect(try bench.select(0x01).offset == 0)
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x08])
    }

    @Test func sdk15KeepsTheInitCommandItHadNoRoomForAsValid() throws {
        var (bench, answer) = try execute(announcing: 0x60000, on: .nrf52832, sdk: .sdk15)
        #expect(answer == [0x60, 0x04, 0x04])
        #expect(bench.bootloader.initCommandValid)
        #expect(try bench.select(0x01).offset > 0)
    }
}
