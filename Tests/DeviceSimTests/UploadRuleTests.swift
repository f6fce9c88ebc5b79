import DFUCore
import DeviceSim
import Testing

/// Zephyr's image upload rules (reference §3, zephyr_img_mgmt.c `img_mgmt_upload_inspect`,
/// img_mgmt.c `img_mgmt_upload`), one by one.
@Suite struct UploadRuleTests {
    let image: [UInt8]
    let sha: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
        sha = try SimSamples.fileSHA(image)
    }

    private func firstChunk(_ count: Int = 1000, len: Bool = true, sha: [UInt8]? = nil) -> CBORMap {
        var body: CBORMap = [:]
        if len { body.append("len", .unsigned(UInt64(image.count))) }
        body.append("off", 0)
        let session: [UInt8] = sha ?? self.sha
        body.append("sha", .bytes(session))
        body.append("data", .bytes(Array(image.prefix(count))))
        return body
    }

    private func chunk(at offset: Int, _ count: Int = 1000) -> CBORMap {
        ["off": .unsigned(UInt64(offset)), "data": .bytes(Array(image[offset ..< min(image.count, offset + count)]))]
    }

    private func offset(_ status: SMPFrame) throws -> Int {
        Int(try ImageUploadResponse.decodeResponse(try SMPPacket(frame: status).body).get().offset)
    }

    @Test func requestWithoutOffsetIsInvalidOffset() throws {
        var h = try DeviceHarness.make()
        let status = try h.status(of: h.uploadPacket(["len": 100, "data": .bytes(Array(image.prefix(64)))]))
        #expect(status == .failure(.image(.invalidOffset)))
    }

    @Test func firstChunkShorterThanAHeaderIsInvalidHeader() throws {
        var h = try DeviceHarness.make()
        #expect(try h.status(of: h.uploadPacket(firstChunk(31))) == .failure(.image(.invalidImageHeader)))
    }

    @Test func firstChunkWithoutLengthIsInvalidLength() throws {
        var h = try DeviceHarness.make()
        #expect(try h.status(of: h.uploadPacket(firstChunk(len: false))) == .failure(.image(.invalidLength)))
    }

    @Test func firstChunkWithoutMCUbootMagicIsRefused() throws {
        var h = try DeviceHarness.make()
        var body = firstChunk()
        body["data"] = .bytes([0x7F, 0x45, 0x4C, 0x46] + Array(image[4 ..< 100]))
        #expect(try h.status(of: h.uploadPacket(body)) == .failure(.image(.invalidImageHeaderMagic)))
    }

    @Test func shaLongerThan32BytesIsInvalidHash() throws {
        var h = try DeviceHarness.make()
        let status = try h.status(of: h.uploadPacket(firstChunk(sha: sha + [0])))
        #expect(status == .failure(.image(.invalidHash)))
    }

    @Test func offZeroWithTheSessionShaResumesWithoutWriting() throws {
        var h = try DeviceHarness.make()
        let reached = try h.upload(image, stopAt: 10_000)
        let before = h.device.server.bootloader.secondary.bytes
        let reply = try h.send(h.uploadPacket(firstChunk(2000)))
        #expect(try offset(reply) == reached)
        #expect(h.device.server.uploadSession?.offset == reached)
        #expect(h.device.server.bootloader.secondary.bytes.elementsEqual(before))
    }

    @Test func truncatedShaStillIdentifiesTheSession() throws {
        var h = try DeviceHarness.make()
        let short = Array(sha.prefix(8))
        let first = try h.send(h.uploadPacket(firstChunk(1000, sha: short)))
        #expect(try offset(first) == 1000)
        let again = try h.send(h.uploadPacket(firstChunk(1000, sha: short)))
        #expect(try offset(again) == 1000)
    }

    @Test func offZeroWithAnotherShaStartsANewSession() throws {
        var h = try DeviceHarness.make()
        try h.upload(image, stopAt: 10_000)
        let reply = try h.send(h.uploadPacket(firstChunk(1000, sha: Array(repeating: 0xAB, count: 32))))
        #expect(try offset(reply) == 1000)
    }

    @Test func offZeroWithoutShaAlwaysStartsOver() throws {
        var h = try DeviceHarness.make()
        var body = firstChunk(1000)
        body["sha"] = nil
        _ = try h.send(h.uploadPacket(body))
        _ = try h.send(h.uploadPacket(chunk(at: 1000)))
        #expect(try offset(try h.send(h.uploadPacket(body))) == 1000)
    }

    @Test func newSessionIsRefusedWhileTheSecondarySlotIsPending() throws {
        var h = try DeviceHarness.make()
        try h.upload(image)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(image), confirm: false)).get()
        #expect(try h.status(of: h.uploadPacket(firstChunk())) == .failure(.image(.noFreeSlot)))
    }

    @Test func newSessionIsRefusedWhileTheSecondaryHoldsTheRevertImage() throws {
        var h = try DeviceHarness.make()
        try h.upload(image)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(image), confirm: false)).get()
        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
        #expect(try h.status(of: h.uploadPacket(firstChunk())) == .failure(.image(.noFreeSlot)))
    }

    @Test func lengthBeyondTheSlotIsImageTooLarge() throws {
        var h = try DeviceHarness.make(slotSize: 0x10000)
        var body = firstChunk()
        body["len"] = .unsigned(0x10000)
        #expect(try h.status(of: h.uploadPacket(body)) == .failure(.image(.imageTooLarge)))
    }

    @Test func upgradeOnlyRefusesAnImageThatIsNotNewer() throws {
        var h = try DeviceHarness.make(version: "1.1.0")
        var body = firstChunk()
        body["upgrade"] = true
        #expect(try h.status(of: h.uploadPacket(body)) == .failure(.image(.currentVersionIsNewer)))
        var newer = try DeviceHarness.make(version: "1.0.0")
        #expect(try newer.status(of: newer.uploadPacket(body)) == .success)
    }

    @Test func firstReplyWaitsForTheEraseOfTheUploadRegion() throws {
        var h = try DeviceHarness.make(flash: .nRF52840)
        try h.upload(image, stopAt: 5000)      // the slot now holds data, so a new session erases
        let start = h.now
        let frame = try h.send(h.uploadPacket(firstChunk(1000, sha: Array(repeating: 1, count: 32))))
        #expect(try offset(frame) == 1000)
        // 49 816 bytes → 13 pages, plus the trailer page, at 85 ms each; then 1000 bytes at 41 µs/word.
        let expected = Duration.milliseconds(85 * 14) + FlashTiming.nRF52840.writeTime(bytes: 1000)
        #expect(start.duration(to: h.now) == expected)
        #expect(h.device.server.bootloader.secondary.isErased(5000 ..< 10_000))
    }

    @Test func firstUploadIntoAnErasedSlotSkipsTheErase() throws {
        var h = try DeviceHarness.make(flash: .nRF52840)
        let start = h.now
        _ = try h.send(h.uploadPacket(firstChunk(1000)))
        #expect(start.duration(to: h.now) == FlashTiming.nRF52840.writeTime(bytes: 1000))
    }

    @Test func wrongNonZeroOffsetIsDiscardedAndAnsweredWithTheExpectedOffset() throws {
        var h = try DeviceHarness.make()
        _ = try h.send(h.uploadPacket(firstChunk(1000)))
        let before = h.device.server.bootloader.secondary.bytes
        let reply = try h.send(h.uploadPacket(chunk(at: 3000)))
        #expect(try SMPStatus(body: try SMPPacket(frame: reply).body) == .success)
        #expect(try offset(reply) == 1000)
        #expect(h.device.server.bootloader.secondary.bytes.elementsEqual(before))
        #expect(h.device.server.uploadSession?.offset == 1000)
    }

    @Test func chunkWithoutASessionIsAnsweredWithOffsetZero() throws {
        var h = try DeviceHarness.make()
        #expect(try offset(try h.send(h.uploadPacket(chunk(at: 4000)))) == 0)
    }

    @Test func dataPastTheDeclaredLengthIsAnOverrun() throws {
        var h = try DeviceHarness.make()
        var body = firstChunk(1000)
        body["len"] = 500
        #expect(try h.status(of: h.uploadPacket(body)) == .failure(.image(.imageDataOverrun)))

        var g = try DeviceHarness.make()
        try g.upload(image, stopAt: image.count - 3000)
        let at = try #require(g.device.server.uploadSession?.offset)
        let status = try g.status(of: g.uploadPacket(["off": .unsigned(UInt64(at)),
                                                       "data": .bytes(Array(repeating: 0, count: image.count - at + 1))]))
        #expect(status == .failure(.image(.imageDataOverrun)))
        #expect(g.device.server.uploadSession == nil)
    }

    @Test func sessionEndsAtTheLastByteAndARepeatedLastChunkGetsOffsetZero() throws {
        var h = try DeviceHarness.make()
        try h.upload(image, stopAt: image.count - 1000)
        let at = try #require(h.device.server.uploadSession?.offset)
        let last = h.uploadPacket(chunk(at: at, image.count - at))
        #expect(try offset(try h.send(last)) == image.count)
        #expect(h.device.server.uploadSession == nil)
        var again = last
        again.header.sequence = h.nextSequence()
        #expect(try offset(try h.send(again)) == 0)
        #expect(h.device.server.bootloader.secondary.read(0 ..< image.count).elementsEqual(image))
    }

    @Test func anyErrorEndsTheSessionInProgress() throws {
        var h = try DeviceHarness.make()
        try h.upload(image, stopAt: 10_000)
        // A stray first packet with a bad magic…
        var stray = firstChunk()
        stray["data"] = .bytes(Array(repeating: 0, count: 64))
        #expect(try h.status(of: h.uploadPacket(stray)) == .failure(.image(.invalidImageHeaderMagic)))
        #expect(h.device.server.uploadSession == nil)
        // …so the same sha now starts over instead of resuming.
        #expect(try offset(try h.send(h.uploadPacket(firstChunk(1000)))) == 1000)
    }

    @Test func malformedBodyIsInvalidValueAndKeepsTheSession() throws {
        var h = try DeviceHarness.make()
        try h.upload(image, stopAt: 10_000)
        let status = try h.status(of: h.uploadPacket(["off": "zero", "data": .bytes([1])]))
        #expect(status == .failure(.mcumgr(.invalidValue)))
        #expect(h.device.server.uploadSession != nil)
    }

    @Test func resetLosesTheSession() throws {
        var h = try DeviceHarness.make()
        try h.upload(image, stopAt: 10_000)
        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
        #expect(h.device.server.uploadSession == nil)
        #expect(try offset(try h.send(h.uploadPacket(firstChunk(1000)))) == 1000)
    }

    @Test func imageEraseEndsTheSession() throws {
        var h = try DeviceHarness.make()
        try h.upload(image, stopAt: 10_000)
        _ = try h.call(ImageEraseRequest()).get()
        #expect(h.device.server.uploadSession == nil)
        #expect(h.device.server.bootloader.secondary.isErased)
    }

    @Test func imageCheckReportsMatchOnTheLastReplyAndSkipsDataAlreadyThere() throws {
        var h = try DeviceHarness.make(server: SMPServerConfiguration(imageCheck: true))
        try h.upload(image, stopAt: image.count - 1000)
        let at = try #require(h.device.server.uploadSession?.offset)
        let last = try ImageUploadResponse.decodeResponse(
            try SMPPacket(frame: try h.send(h.uploadPacket(chunk(at: at, image.count - at)))).body).get()
        #expect(last.offset == UInt64(image.count) && last.match == true)

        let again = try ImageUploadResponse.decodeResponse(
            try SMPPacket(frame: try h.send(h.uploadPacket(firstChunk()))).body).get()
        #expect(again.offset == UInt64(image.count) && again.match == true)
    }

    @Test func withoutImageCheckTheLastReplyHasNoMatch() throws {
        var h = try DeviceHarness.make()
        try h.upload(image, stopAt: image.count - 1000)
        let at = try #require(h.device.server.uploadSession?.offset)
        let last = try ImageUploadResponse.decodeResponse(
            try SMPPacket(frame: try h.send(h.uploadPacket(chunk(at: at, image.count - at)))).body).get()
        #expect(last.match == nil)
    }
}
