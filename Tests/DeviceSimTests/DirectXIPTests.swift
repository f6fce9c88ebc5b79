import DFUCore
import DeviceSim
import Testing

/// MCUboot in direct-XIP mode, with and without revert (design.md "Equal slots (direct-xip)",
/// "Revert mechanism in direct-xip and ram-load mode"), as Zephyr's img_mgmt reports and changes it
/// (img_mgmt_state.c with CONFIG_MCUBOOT_BOOTLOADER_MODE_DIRECT_XIP[_WITH_REVERT]). The images are
/// the direct-XIP sample's two variants, each signed --rom-fixed for its slot.
@Suite struct DirectXIPTests {
    let forPrimary: [UInt8]
    let forSecondary: [UInt8]

    init() throws {
        let package = try NCSPackage(zipBytes: try SimSamples.bytes("ncs/direct-xip-1.1.0.zip"))
        let variants = package.images(forImageIndex: 0)
        forPrimary = try #require(variants.first { $0.entry.slot == 0 }).bytes
        forSecondary = try #require(variants.first { $0.entry.slot == 1 }).bytes
    }

    private func reset(_ h: inout DeviceHarness) throws {
        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
    }

    private func running(_ h: inout DeviceHarness) throws -> ImageSlotState {
        try #require(try h.state().images.first { $0.active })
    }

    @Test func theNewerImageInTheOtherSlotBootsFromThereWithoutAMark() throws {
        var h = try DeviceHarness.make(swapMode: .directXIP)
        try h.upload(forSecondary)
        let other = try #require(try h.state().slot(1))
        #expect(other.pending && other.permanent, "newer: the next boot, for good (img_mgmt_state_read)")
        try reset(&h)
        let now = try running(&h)
        let hash = try SimSamples.slotHash(forSecondary)
        #expect(now.slot == 1 && now.hash == hash && now.confirmed)
        #expect(try h.state().slot(0)?.version == "1.0.0", "the old image stays in slot 0")
    }

    @Test func aTestMarkOfTheNewerImageIsRefusedWithoutRevert() throws {
        var h = try DeviceHarness.make(swapMode: .directXIP)
        try h.upload(forSecondary)
        let hash = try SimSamples.slotHash(forSecondary)
        #expect(try h.call(ImageStateWriteRequest(hash: hash, confirm: false)) == .failure(.image(.imageAlreadyPending)))
        #expect(try h.call(ImageStateWriteRequest(hash: hash, confirm: true)).get().images.contains { $0.hash == hash })
    }

    @Test func anImageLinkedForTheOtherSlotIsSkippedAtBoot() throws {
        var h = try DeviceHarness.make(swapMode: .directXIP)
        try h.upload(forPrimary) // goes to slot 1, but says it runs from slot 0
        try reset(&h)
        let now = try running(&h)
        #expect(now.slot == 0 && now.version == "1.0.0")
        #expect(try h.state().slot(1) != nil, "skipped, not erased (boot_rom_address_check)")
    }

    @Test func uploadsGoToTheSlotTheImageDoesNotRunFrom() throws {
        var h = try DeviceHarness.make(swapMode: .directXIP)
        try h.upload(forSecondary)
        try reset(&h)
        try h.upload(try SimSamples.blinky("1.2.3+45")) // now into slot 0
        #expect(try h.state().slot(0)?.version == "1.2.3.45")
        #expect(try running(&h).slot == 1)
    }

    @Test func withRevertATestedImageThatIsNotConfirmedIsErasedAtTheNextBoot() throws {
        var h = try DeviceHarness.make(swapMode: .directXIPWithRevert)
        try h.upload(forSecondary)
        let hash = try SimSamples.slotHash(forSecondary)
        let marked = try h.call(ImageStateWriteRequest(hash: hash, confirm: false)).get()
        #expect(marked.slot(1)?.pending == true && marked.slot(1)?.permanent == false)
        try reset(&h)
        let testing = try running(&h)
        #expect(testing.slot == 1 && !testing.confirmed, "booted once, on test")
        #expect(try h.state().slot(0)?.confirmed == true, "the slot a revert goes back to")
        try reset(&h)
        #expect(try running(&h).slot == 0)
        #expect(try h.state().slot(1) == nil, "erased")
    }

    @Test func withRevertAConfirmedTestImageStays() throws {
        var h = try DeviceHarness.make(swapMode: .directXIPWithRevert)
        try h.upload(forSecondary)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(forSecondary), confirm: false)).get()
        try reset(&h)
        _ = try h.call(ImageStateWriteRequest(confirm: true)).get()
        #expect(try running(&h).confirmed)
        try reset(&h)
        #expect(try running(&h).slot == 1)
    }

    @Test func withRevertAnUnmarkedImageIsErasedNotBooted() throws {
        var h = try DeviceHarness.make(swapMode: .directXIPWithRevert)
        try h.upload(forSecondary)
        try reset(&h)
        #expect(try running(&h).slot == 0)
        #expect(try h.state().slot(1) == nil)
    }

    @Test func ramLoadRunsTheNewestRAMLoadImageFromEitherSlot() throws {
        var h = try DeviceHarness.make(swapMode: .ramLoad)
        let image = try SimSamples.bytes("images/blinky-ramload-ecdsa-p256-1.1.0.signed.bin")
        try h.upload(image)
        #expect(try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(image), confirm: false))
                == .failure(.image(.imageAlreadyPending)), "without revert the newer image is already next, for good")
        try reset(&h)
        let now = try running(&h)
        #expect(now.slot == 1 && now.version == "1.1.0" && now.confirmed)
    }

    @Test func ramLoadErasesAnImageThatIsNotRAMLoadable() throws {
        var h = try DeviceHarness.make(swapMode: .ramLoad)
        try h.upload(try SimSamples.blinky("1.1.0")) // no RAM_LOAD flag
        try reset(&h)
        #expect(try running(&h).slot == 0)
        #expect(try h.state().slot(1) == nil, "boot_remove_image_from_flash")
    }
}
