@testable import DFUCore
import Testing

/// An SMP update of several images held against MCUboot's image list (`SMPUpdate.settle`): which
/// direct-XIP variant goes to the free slot, and what the device already runs or holds. Pure.
struct SMPUpdatePlanTests {
    static func directXIP() throws -> SMPUpdate {
        try SMPUpdate(ncsZip: try Samples.bytes("ncs/direct-xip-1.1.0.zip"), key: nil)
    }

    static func nrf5340() throws -> SMPUpdate {
        try SMPUpdate(ncsZip: try Samples.bytes("ncs/nrf5340-1.1.0.zip"), key: nil)
    }

    static let old = [UInt8](repeating: 7, count: 32)

    @Test func directXIPRunningFromSlotZeroGetsTheVariantForSlotOne() throws {
        var update = try Self.directXIP()
        let variants = try #require(update.images.first).variants
        try #require(variants.count == 2)
        let state = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0", hash: Self.old,
                                                               confirmed: true, active: true)])
        try update.settle(against: state, mode: .directXIP)
        let secondary = try #require(variants.first { $0.slot == 1 })
        #expect(update.main.image.slotHash == secondary.image.slotHash)
        #expect(update.plan == .upload)
    }

    @Test func directXIPRunningFromSlotOneGetsTheVariantForSlotZero() throws {
        var update = try Self.directXIP()
        let variants = try #require(update.images.first).variants
        let state = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "0.9.0", hash: [UInt8](repeating: 3, count: 32)),
                                                ImageSlotState(slot: 1, version: "1.0.0", hash: Self.old,
                                                               confirmed: true, active: true)])
        try update.settle(against: state, mode: .directXIPWithRevert)
        let primary = try #require(variants.first { $0.slot == 0 })
        #expect(update.main.image.slotHash == primary.image.slotHash)
    }

    @Test func directXIPAlreadyRunningEitherVariantHasNothingToDo() throws {
        var update = try Self.directXIP()
        let variant = try #require(update.images.first?.variants.first { $0.slot == 1 })
        let state = ImageStateResponse(images: [ImageSlotState(slot: 1, version: "1.1.0", hash: variant.image.slotHash,
                                                               confirmed: true, active: true)])
        try update.settle(against: state, mode: .directXIP)
        #expect(update.plan == .alreadyRunning(confirmed: true))
    }

    @Test func directXIPZipWithoutTheFreeSlotsVariantIsRefused() throws {
        var update = try Self.directXIP()
        let keep = try #require(update.images.first?.variants.filter { $0.slot == 0 })
        update.images[0] = try SMPUpdateImage(name: update.main.name, variants: keep)
        let state = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0", hash: Self.old, active: true)])
        #expect(throws: DFUError.precondition([.inImage(update.main.name, .directXIPVariantMissing(freeSlot: 1))])) {
            try update.settle(against: state, mode: .directXIP)
        }
    }

    @Test func directXIPBuildOnASwappingBootloaderIsRefused() throws {
        var update = try Self.directXIP()
        let state = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0", hash: Self.old, active: true)])
        #expect(throws: DFUError.self) { try update.settle(against: state, mode: .swapWithoutScratch) }
    }

    @Test func anImageTheDeviceRunsIsSkippedAndTheOtherIsSent() throws {
        var update = try Self.nrf5340()
        let net = update.images[1].image.slotHash
        let state = ImageStateResponse(images: [
            ImageSlotState(image: 0, slot: 0, version: "1.0.0", hash: Self.old, confirmed: true, active: true),
            ImageSlotState(image: 1, slot: 0, version: "1.1.0", hash: net, confirmed: true, active: true),
        ])
        try update.settle(against: state)
        #expect(update.images.map(\.plan) == [.upload, .alreadyRunning(confirmed: true)])
        #expect(update.plan == .upload)
    }

    @Test func everyImageInItsSlotFromAnEarlierRunNeedsNoUpload() throws {
        var update = try Self.nrf5340()
        let state = ImageStateResponse(images: [
            ImageSlotState(image: 0, slot: 0, version: "1.0.0", hash: Self.old, confirmed: true, active: true),
            ImageSlotState(image: 0, slot: 1, version: "1.1.0", hash: update.images[0].image.slotHash),
            ImageSlotState(image: 1, slot: 0, version: "1.1.0", hash: update.images[1].image.slotHash, active: true),
        ])
        try update.settle(against: state)
        #expect(update.plan == .alreadyUploaded)
    }

    @Test func aCompressedImageAlreadyInstalledIsFoundByItsDecompSHA() throws {
        let image = try PreparedImage(bytes: try Samples.image("blinky-lzma2-ed25519-1.1.0.signed.bin"), key: nil)
        #expect(image.installedHash != image.slotHash)
        var update = SMPUpdate(image: image, index: 0)
        let state = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.1.0", hash: image.installedHash,
                                                               confirmed: true, active: true)])
        try update.settle(against: state)
        #expect(update.plan == .alreadyRunning(confirmed: true))
    }

    @Test func theImagesOfAZipAreOnePartEachInIndexOrder() throws {
        let update = try Self.nrf5340()
        #expect(update.parts.map(\.name) == ["image 0 (application core)", "image 1 (network core)"])
        #expect(update.size == 49814 + 33430)
        #expect(update.summaries.map { $0.image?.index } == [0, 1])
    }
}
