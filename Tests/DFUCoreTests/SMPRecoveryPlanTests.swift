@testable import DFUCore
import Testing

/// MCUboot's serial recovery as dfu reads it, without a device: who answered a list
/// (`ImageLister`), the update held against the bootloader's list (`settleForRecovery`), and the
/// list after the upload (`RecoveryPrimarySlotCheck`).
struct SMPRecoveryPlanTests {
    static let old = [UInt8](repeating: 7, count: 32)

    static func image() throws -> PreparedImage {
        try PreparedImage(bytes: try Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin"), key: nil)
    }

    @Test func theShapeOfAListSaysWhoAnswered() {
        let running = ImageSlotState(slot: 0, version: "1.0.0", hash: Self.old, confirmed: true, active: true)
        #expect(ImageStateResponse(images: [running], splitStatus: 0).lister == .application)
        #expect(ImageStateResponse(images: [running]).lister == .either, "a frugal application, or recovery with image state")
        #expect(ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0.0", hash: Self.old)]).lister == .serialRecovery)
        #expect(ImageStateResponse(images: []).lister == .serialRecovery, "an empty device in recovery lists nothing")
    }

    /// Every image is uploaded in recovery, even one slot 1 already holds: it goes to slot 0.
    @Test func recoveryAlwaysUploadsIntoThePrimarySlot() throws {
        let image = try Self.image()
        var update = SMPUpdate(image: image, index: 0)
        let state = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0.0", hash: Self.old),
                                                ImageSlotState(slot: 1, version: "1.1.0.0", hash: image.slotHash)])
        try update.settleForRecovery(against: state)
        #expect(update.plan == .upload)
        #expect(update.main.runningBefore?.hash == Self.old)
    }

    @Test func aDirectXIPBuildSendsThePrimarySlotsVariant() throws {
        var update = try SMPUpdatePlanTests.directXIP()
        let primary = try #require(update.main.variants.first { $0.slot == 0 })
        try update.settleForRecovery(against: ImageStateResponse(images: []))
        #expect(update.main.image.slotHash == primary.image.slotHash)
    }

    @Test func thePrimarySlotMustListTheImage() throws {
        let image = try Self.image()
        let check = RecoveryPrimarySlotCheck(image: image, imageIndex: 0, device: "serial:/dev/ttyACM0")
        let byHash = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.1.0.0", hash: image.slotHash)])
        #expect(try check.evidence(in: byHash) == .hash)
        let byVersion = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.1.0.0", hash: [])])
        #expect(try check.evidence(in: byVersion) == .version)

        let cases: [(ImageStateResponse, String)] = [
            (ImageStateResponse(images: []), "lists no valid image in its primary slot"),
            (ImageStateResponse(images: [ImageSlotState(slot: 1, version: "1.1.0", hash: image.slotHash)]),
             "lists no valid image in its primary slot"),
            (ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0", hash: Self.old)]), "lists another image"),
            (ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0", hash: [])]), "lists version 1.0.0"),
        ]
        for (state, says) in cases {
            do {
                _ = try check.evidence(in: state)
                Issue.record("accepted \(state)")
            } catch {
                guard case .deviceRejected(let message, _) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(message.contains(says), "\(message)")
            }
        }
    }
}
