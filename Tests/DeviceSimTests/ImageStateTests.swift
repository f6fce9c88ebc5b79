import DFUCore
import DeviceSim
import Testing

/// Test/confirm semantics (img_mgmt_state.c `img_mgmt_set_next_boot_slot`, reference §3–4) and
/// what MCUboot makes of them at reset.
@Suite struct ImageStateTests {
    let image: [UInt8]
    let hash: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
        hash = try SimSamples.slotHash(image)
    }

    private func uploaded() throws -> DeviceHarness {
        var h = try DeviceHarness.make()
        try h.upload(image)
        return h
    }

    private func reset(_ h: inout DeviceHarness) throws {
        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
    }

    @Test func freshDeviceListsOnlyItsConfirmedActiveImage() throws {
        var h = try DeviceHarness.make(version: "1.2.3+45")
        let state = try h.state()
        #expect(state.images.count == 1)
        let slot0 = try #require(state.slot(0))
        #expect(slot0.version == "1.2.3.45")
        #expect(slot0.active && slot0.confirmed && slot0.bootable && !slot0.pending && !slot0.permanent)
        #expect(state.splitStatus == 0)
    }

    @Test func testWithoutHashIsInvalidHash() throws {
        var h = try uploaded()
        #expect(try h.call(ImageStateWriteRequest(confirm: false)) == .failure(.image(.invalidHash)))
        #expect(try h.call(ImageStateWriteRequest()) == .failure(.image(.invalidHash)))
    }

    @Test func hashThatIsNot32BytesIsInvalidHash() throws {
        var h = try uploaded()
        #expect(try h.call(ImageStateWriteRequest(hash: Array(hash.prefix(31)))) == .failure(.image(.invalidHash)))
    }

    @Test func hashOfNoSlotIsHashNotFound() throws {
        var h = try uploaded()
        let other = [UInt8](repeating: 0x42, count: 32)
        #expect(try h.call(ImageStateWriteRequest(hash: other)) == .failure(.image(.hashNotFound)))
    }

    @Test func testingTheRunningImageIsDenied() throws {
        var h = try uploaded()
        let running = try #require(try h.state().slot(0)?.hash)
        let result = try h.call(ImageStateWriteRequest(hash: running, confirm: false))
        #expect(result == .failure(.image(.settingTestToActiveDenied)))
    }

    @Test func retestingThePendingSlotIsANoOpButOtherChangesArePending() throws {
        var h = try uploaded()
        _ = try h.call(ImageStateWriteRequest(hash: hash)).get()
        #expect(try h.call(ImageStateWriteRequest(hash: hash)).get().slot(1)?.pending == true)
        // Confirming (the running image, or the pending one for good) while a test is pending: 28.
        #expect(try h.call(ImageStateWriteRequest(confirm: true)) == .failure(.image(.imageAlreadyPending)))
        #expect(try h.call(ImageStateWriteRequest(hash: hash, confirm: true)) == .failure(.image(.imageAlreadyPending)))
    }

    @Test func confirmingTheRunningImageWithNothingPendingIsANoOp() throws {
        var h = try uploaded()
        let state = try h.call(ImageStateWriteRequest(confirm: true)).get()
        #expect(state.slot(0)?.confirmed == true)
        #expect(h.device.server.bootloader.swapType == .none)
    }

    @Test func unconfirmedImageRevertsOnTheNextReset() throws {
        var h = try uploaded()
        _ = try h.call(ImageStateWriteRequest(hash: hash)).get()
        try reset(&h)
        #expect(h.device.firmwareRevision == "1.1.0")
        try reset(&h)
        #expect(h.device.firmwareRevision == "1.0.0")
        let state = try h.state()
        #expect(state.slot(0).map { $0.version == "1.0.0" && $0.active && $0.confirmed } == true)
        #expect(state.slot(1).map { $0.version == "1.1.0" && !$0.confirmed && !$0.pending } == true)
        #expect(h.device.boots.map(\.outcome) == [.swapped(permanent: false), .reverted])
    }

    @Test func whileARevertIsArmedOnlyConfirmingIsAllowed() throws {
        var h = try uploaded()
        _ = try h.call(ImageStateWriteRequest(hash: hash)).get()
        try reset(&h)
        let oldHash = try #require(try h.state().slot(1)?.hash)
        #expect(try h.call(ImageStateWriteRequest(hash: oldHash)) == .failure(.image(.imageAlreadyPending)))
        // Confirming the slot the revert would boot is a no-op: it is already "confirmed".
        #expect(try h.call(ImageStateWriteRequest(hash: oldHash, confirm: true)).get().slot(0)?.confirmed == false)
        #expect(try h.call(ImageStateWriteRequest(hash: hash, confirm: true)).get().slot(0)?.confirmed == true)
    }

    @Test func confirmWithHashMakesTheImagePermanent() throws {
        var h = try uploaded()
        let state = try h.call(ImageStateWriteRequest(hash: hash, confirm: true)).get()
        #expect(state.slot(1).map { $0.pending && $0.permanent && !$0.confirmed } == true)
        #expect(try h.call(ImageStateWriteRequest(hash: hash)) == .failure(.image(.imageAlreadyPending)))
        try reset(&h)
        #expect(try h.state().slot(0).map { $0.version == "1.1.0" && $0.active && $0.confirmed } == true)
        try reset(&h)
        #expect(h.device.firmwareRevision == "1.1.0")
        #expect(h.device.boots.map(\.outcome) == [.swapped(permanent: true), .normal])
    }

    @Test func imageSignedWithAnotherKeyIsNotBooted() throws {
        var h = try DeviceHarness.make()
        let foreign = try SimSamples.bytes("broken/signed-with-other-key.bin")
        try h.upload(foreign)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(foreign))).get()
        try reset(&h)
        #expect(h.device.firmwareRevision == "1.0.0")
        let state = try h.state()
        #expect(state.slot(0).map { $0.version == "1.0.0" && $0.active && $0.confirmed } == true)
        // MCUboot erased the invalid candidate.
        #expect(state.slot(1) == nil)
        guard case .rejected(let reason)? = h.device.boots.last?.outcome else {
            Issue.record("expected a rejected boot, got \(String(describing: h.device.boots.last))")
            return
        }
        #expect(reason.contains("signature"))
    }

    @Test func tamperedImageIsNotBooted() throws {
        var h = try DeviceHarness.make()
        let tampered = try SimSamples.bytes("broken/tampered-body.bin")
        try h.upload(tampered)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(tampered))).get()
        try reset(&h)
        #expect(h.device.firmwareRevision == "1.0.0")
        #expect(h.device.boots.last.map { if case .rejected = $0.outcome { true } else { false } } == true)
    }

    @Test func imageWithAWrongKeyHashIsNotBooted() throws {
        var h = try DeviceHarness.make()
        let wrong = try SimSamples.bytes("broken/wrong-keyhash.bin")
        try h.upload(wrong)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(wrong))).get()
        try reset(&h)
        #expect(h.device.firmwareRevision == "1.0.0")
    }

    @Test func deviceWithAnEd25519KeyBootsAnEd25519Image() throws {
        var h = try DeviceHarness.make(key: try SimSamples.key("ed25519"))
        let ed = try SimSamples.bytes("images/blinky-ed25519-1.1.0.signed.bin")
        try h.upload(ed)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(ed))).get()
        try reset(&h)
        #expect(h.device.firmwareRevision == "1.1.0")
    }

    @Test func eraseRefusesSlotsInUseAndInvalidSlots() throws {
        var h = try uploaded()
        #expect(try h.call(ImageEraseRequest(slot: 0)) == .failure(.image(.noFreeSlot)))
        _ = try h.call(ImageStateWriteRequest(hash: hash)).get()
        #expect(try h.call(ImageEraseRequest()) == .failure(.image(.noFreeSlot)))
        #expect(try h.call(ImageEraseRequest(slot: 2)) == .failure(.image(.invalidSlot)))
    }

    @Test func eraseEmptiesTheSecondarySlot() throws {
        var h = try uploaded()
        _ = try h.call(ImageEraseRequest(slot: 1)).get()
        #expect(try h.state().slot(1) == nil)
    }

    @Test func slotInfoReportsSizesAndTheUploadTarget() throws {
        var h = try DeviceHarness.make(slotSize: 0x60000)
        let info = try h.call(ImageSlotInfoRequest()).get()
        let image = try #require(info.images.first)
        #expect(image.image == 0)
        #expect(image.slots.map(\.size) == [0x60000, 0x60000])
        #expect(image.slots.map(\.uploadImageID) == [nil, 0])
        #expect(image.maxImageSize == UInt64(0x60000 - 2 * 4096))
    }
}
