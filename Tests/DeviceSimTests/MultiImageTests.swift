import DFUCore
import DeviceSim
import Testing

/// The nRF5340-like device (`images=2`): image 1 has its own slot pair, running image and trailer,
/// as Zephyr's img_mgmt reports and changes them (img_mgmt_state.c, zephyr_img_mgmt.c) and as a
/// multi-image MCUboot installs them (every pending image at the same reset).
@Suite struct MultiImageTests {
    let image: [UInt8]
    let hash: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
        hash = try SimSamples.slotHash(image)
    }

    private func reset(_ h: inout DeviceHarness) throws {
        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
    }

    @Test func stateListsEachImageByNumberWithItsOwnRunningImage() throws {
        var h = try DeviceHarness.make(images: 2)
        let state = try h.state()
        #expect(state.images.map(\.image) == [0, 1])
        let app = try #require(state.slot(0, image: 0))
        let net = try #require(state.slot(0, image: 1))
        #expect(app.active && app.confirmed && net.active && net.confirmed)
        #expect(app.hash != net.hash, "two different running images")
    }

    @Test func oneImageDeviceLeavesTheImageNumberOut() throws {
        var h = try DeviceHarness.make()
        #expect(try h.state().images.allSatisfy { $0.image == nil })
    }

    @Test func uploadWithImageOneFillsImageOnesSecondarySlotOnly() throws {
        var h = try DeviceHarness.make(images: 2)
        try h.upload(image, imageNumber: 1)
        let state = try h.state()
        #expect(state.slot(1, image: 1)?.hash == hash)
        #expect(state.slot(1, image: 0) == nil)
        #expect(h.device.server.bootloader.images[1].secondaryImage?.hash == hash)
        #expect(h.device.server.bootloader.secondary.isErased)
    }

    @Test func uploadToAnImageTheDeviceDoesNotHaveFindsNoFreeSlot() throws {
        var h = try DeviceHarness.make(images: 2)
        let request = ImageUploadRequest(image: 2, length: UInt64(image.count), offset: 0,
                                         sha: try SimSamples.fileSHA(image), data: Array(image.prefix(64)))
        #expect(try h.call(request) == .failure(.image(.noFreeSlot)))
    }

    @Test func resetInstallsEveryPendingImageTogether() throws {
        var h = try DeviceHarness.make(images: 2)
        let other = try SimSamples.blinky("1.2.3+45")
        try h.upload(other, imageNumber: 0)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(other), confirm: false)).get()
        try h.upload(image, imageNumber: 1)
        _ = try h.call(ImageStateWriteRequest(hash: hash, confirm: false)).get()
        try reset(&h)
        let state = try h.state()
        #expect(state.slot(0, image: 0)?.version == "1.2.3.45")
        #expect(state.slot(0, image: 1)?.hash == hash)
        #expect(state.slot(0, image: 1)?.confirmed == false, "image 1 reverts unless confirmed")
        #expect(h.device.boots.last?.otherImages == [.swapped(permanent: false)])
    }

    @Test func imageOnesRunningImageCannotBeConfirmedButItsSecondaryCanBeMadePermanent() throws {
        var h = try DeviceHarness.make(images: 2)
        try h.upload(image, imageNumber: 1)
        _ = try h.call(ImageStateWriteRequest(hash: hash, confirm: false)).get()
        try reset(&h)
        // CONFIG_MCUMGR_GRP_IMG_ALLOW_CONFIRM_NON_ACTIVE_IMAGE_ANY is off by default.
        #expect(try h.call(ImageStateWriteRequest(hash: hash, confirm: true))
                == .failure(.image(.imageConfirmationDenied)))
        try reset(&h)
        #expect(try h.state().slot(0, image: 1)?.hash != hash, "the unconfirmed test image reverted")
        // ALLOW_CONFIRM_NON_ACTIVE_IMAGE_SECONDARY is on by default: permanent before the reset works.
        _ = try h.call(ImageStateWriteRequest(hash: hash, confirm: true)).get()
        try reset(&h)
        let running = try #require(try h.state().slot(0, image: 1))
        #expect(running.hash == hash && running.confirmed)
    }

    @Test func confirmWithoutHashConfirmsTheApplicationImageOnly() throws {
        var h = try DeviceHarness.make(images: 2)
        try h.upload(image, imageNumber: 1)
        _ = try h.call(ImageStateWriteRequest(hash: hash, confirm: false)).get()
        try reset(&h)
        _ = try h.call(ImageStateWriteRequest(confirm: true)).get()
        #expect(h.device.server.bootloader.images[1].swapType == .revert)
    }

    @Test func slotInfoListsBothImages() throws {
        var h = try DeviceHarness.make(images: 2)
        let info = try h.call(ImageSlotInfoRequest()).get()
        #expect(info.images.map(\.image) == [0, 1])
        #expect(info.images.allSatisfy { $0.slots.map(\.slot) == [0, 1] && $0.maxImageSize != nil })
    }

    @Test func eraseOfSlotThreeErasesImageOnesSecondary() throws {
        var h = try DeviceHarness.make(images: 2)
        try h.upload(image, imageNumber: 1)
        _ = try h.call(ImageEraseRequest(slot: 3)).get()
        #expect(h.device.server.bootloader.images[1].secondary.isErased)
        #expect(try h.call(ImageEraseRequest(slot: 5)) == .failure(.image(.invalidSlot)))
    }
}
