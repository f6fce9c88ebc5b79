@testable import ReferenceDevices
import Testing

/// img_mgmt.c `img_mgmt_upload` and zephyr_img_mgmt.c `img_mgmt_upload_inspect`, rule by rule.
@Suite struct MCUmgrSerialUploadRuleTests {
    let image = Samples.image(major: 1, minor: 1, bodySize: 2000)

    @Test func aChunkAtTheWrongOffsetIsDroppedAndAnsweredWithTheExpectedOne() {
        var rig = SerialRig(.test())
        #expect(rig.uploadChunk(image, off: 0, count: 200)?["off"]?.uint == 200)
        #expect(rig.uploadChunk(image, off: 600, count: 200)?["off"]?.uint == 200)
        #expect(rig.uploadChunk(image, off: 200, count: 200)?["off"]?.uint == 400)
        #expect(rig.device.slotContents(1)[600] == 0xFF)
    }

    @Test func aFirstChunkRestartsTheUploadUnlessItsShaMatchesTheUploadInProgress() {
        var rig = SerialRig(.test())
        let sha = MCUmgrSerial.SHA256.digest(image)
        #expect(rig.uploadChunk(image, off: 0, count: 200, sha: sha)?["off"]?.uint == 200)
        #expect(rig.uploadChunk(image, off: 200, count: 200)?["off"]?.uint == 400)
        // Same sha: resumed, the data is not written, the answer is the current offset.
        #expect(rig.uploadChunk(image, off: 0, count: 200, sha: sha)?["off"]?.uint == 400)
        // No sha (or another one): a new upload from 0.
        #expect(rig.uploadChunk(image, off: 0, count: 100)?["off"]?.uint == 100)
    }

    @Test func theLastChunkSentAgainIsAnsweredWithOffsetZero() {
        var rig = SerialRig(.test())
        let answers = rig.upload(image, chunk: 300)
        #expect(answers.last?["off"]?.uint == UInt64(image.count))
        // The finished upload was reset (img_mgmt_reset_upload): its offset is 0 again.
        #expect(rig.uploadChunk(image, off: 1800, count: 300)?["off"]?.uint == 0)
    }

    @Test func imageCheckAddsMatchToTheLastAnswer() {
        var config = MCUmgrSerialConfiguration.test()
        config.imageCheck = true
        var rig = SerialRig(config)
        let sha = MCUmgrSerial.SHA256.digest(image)
        let answers = rig.upload(image, chunk: 300, sha: sha)
        #expect(answers.dropLast().allSatisfy { $0["match"] == nil })
        #expect(answers.last?["match"]?.bool == true)
        // Sent again with the same full sha: already there, complete at once.
        let again = rig.uploadChunk(image, off: 0, count: 300, sha: sha)
        #expect(again?["off"]?.uint == UInt64(image.count))
        #expect(again?["match"]?.bool == true)
    }

    @Test func firstChunkChecksAnswerWithGroupErrors() {
        var rig = SerialRig(.test())
        func first(_ pairs: [(String, TestCBOR)]) -> TestCBOR? {
            rig.request(.request(write: true, group: 1, command: 1, .map(pairs))).last?.body
        }
        func err(_ code: UInt64) -> TestCBOR { .map([("err", .map([("group", .uint(1)), ("rc", .uint(code))]))]) }
        #expect(first([("off", .uint(0)), ("data", .bytes(Array(image.prefix(16)))), ("len", .uint(2000))]) == err(22))
        #expect(first([("off", .uint(0)), ("data", .bytes(Array(image.prefix(64))))]) == err(21))
        #expect(first([("off", .uint(0)), ("data", .bytes([UInt8](repeating: 0, count: 64))), ("len", .uint(2000))]) == err(23))
        #expect(first([("off", .uint(0)), ("data", .bytes(Array(image.prefix(64)))), ("len", .uint(0x80000))]) == err(30))
        #expect(first([("data", .bytes(Array(image.prefix(64))))]) == err(20))
        #expect(first([("off", .text("0"))]) == .map([("rc", .uint(3))]))  // undecodable: MGMT_ERR_EINVAL
        #expect(first([("off", .uint(0)), ("data", .bytes(Array(image.prefix(64)))), ("len", .uint(2000)),
                       ("upgrade", .bool(true))]) == .map([("off", .uint(64))]))
        let older = Samples.image(major: 0, minor: 9)
        #expect(first([("off", .uint(0)), ("data", .bytes(Array(older.prefix(64)))), ("len", .uint(UInt64(older.count))),
                       ("upgrade", .bool(true))]) == err(27))
    }

    @Test func dataPastTheAnnouncedLengthFailsAndForgetsTheUpload() {
        var rig = SerialRig(.test())
        for off in stride(from: 0, to: 1800, by: 300) {
            #expect(rig.uploadChunk(image, off: off, count: 300)?["off"]?.uint == UInt64(off + 300))
        }
        let overrun = TestCBOR.map([("off", .uint(1800)), ("data", .bytes([UInt8](repeating: 1, count: 300)))])
        #expect(rig.request(.request(write: true, group: 1, command: 1, overrun)).last?.body
            == .map([("err", .map([("group", .uint(1)), ("rc", .uint(31))]))]))
        #expect(rig.uploadChunk(image, off: 1800, count: 100)?["off"]?.uint == 0)
    }

    @Test func noUploadWhileATestIsPending() {
        var rig = SerialRig(.test())
        rig.upload(image)
        _ = rig.setImageState(hash: Samples.hash(of: image), confirm: false)
        #expect(rig.uploadChunk(image, off: 0, count: 200)?["err"]?["rc"]?.uint == 9)
    }

    @Test func anOriginalProtocolClientGetsGroupErrorsAsLegacyRC() {
        var rig = SerialRig(.test())
        let badMagic = TestCBOR.map([("off", .uint(0)), ("data", .bytes([UInt8](repeating: 0, count: 64))), ("len", .uint(64))])
        let answer = rig.request(.request(write: true, group: 1, command: 1, version: 0, badMagic)).last
        #expect(answer?.version == 0)
        #expect(answer?.body == .map([("rc", .uint(1))]))  // INVALID_IMAGE_HEADER_MAGIC → MGMT_ERR_EUNKNOWN
        rig.upload(image)
        _ = rig.setImageState(hash: Samples.hash(of: image), confirm: false)
        let busy = TestCBOR.map([("off", .uint(0)), ("data", .bytes(Array(image.prefix(64)))), ("len", .uint(64))])
        #expect(rig.request(.request(write: true, group: 1, command: 1, version: 0, busy)).last?.body == .map([("rc", .uint(6))]))
    }

    @Test func stateWriteRefusals() {
        var rig = SerialRig(.test())
        func code(_ body: TestCBOR?) -> UInt64? { body?["err"]?["rc"]?.uint }
        #expect(code(rig.setImageState(hash: nil, confirm: false)) == 24)           // test without a hash
        #expect(code(rig.setImageState(hash: [1, 2, 3], confirm: false)) == 24)     // not 32 bytes
        #expect(code(rig.setImageState(hash: [UInt8](repeating: 9, count: 32), confirm: false)) == 8)
        let running = Samples.hash(of: MCUmgrSerialConfiguration.test().initialImage)
        #expect(code(rig.setImageState(hash: running, confirm: false)) == 33)       // test of the active slot
        #expect(rig.setImageState(hash: running, confirm: true)?["images"] != nil)  // confirming it: nothing to do
    }

    @Test func eraseRefusesTheRunningSlotAndClearsTheOther() {
        var rig = SerialRig(.test())
        rig.upload(image)
        let erase = { (slot: UInt64?) -> TestSMP in
            .request(write: true, group: 1, command: 5, .map(slot.map { [("slot", .uint($0))] } ?? []))
        }
        #expect(rig.request(erase(0)).last?.body?["err"]?["rc"]?.uint == 9)
        #expect(rig.request(erase(nil)).last?.body == .map([]))
        #expect(rig.device.slotContents(1).allSatisfy { $0 == 0xFF })
    }
}
