@testable import ReferenceDevices
import Testing

/// MCUboot boot_serial.c and the Zephyr serial adapter.
@Suite struct MCUmgrSerialRecoveryTests {
    static func recoveryRig(_ configure: (inout MCUmgrSerialConfiguration) -> Void = { _ in }) -> SerialRig {
        var config = MCUmgrSerialConfiguration.test()
        configure(&config)
        return SerialRig(config, holdingRecoveryButton: true)
    }

    static func upload(_ rig: inout SerialRig, _ image: [UInt8], chunk: Int = 512) -> [TestCBOR] {
        var answers: [TestCBOR] = []
        var off = 0
        while off < image.count, answers.count < 1000 {
            var pairs: [(String, TestCBOR)] = []
            if off == 0 { pairs.append(("len", .uint(UInt64(image.count)))) }
            pairs += [("off", .uint(UInt64(off))), ("data", .bytes(Array(image[off..<min(image.count, off + chunk)])))]
            guard let answer = rig.request(.request(write: true, group: 1, command: 1, .map(pairs))).first?.body else { break }
            answers.append(answer)
            guard answer["rc"]?.uint == 0, let next = answer["off"]?.uint else { break }
            off = Int(next)
        }
        return answers
    }

    @Test func uploadIntoThePrimarySlotThenResetBootsTheNewApplication() throws {
        let sample = try Samples.file("images/blinky-ed25519-1.1.0.signed.bin")
        var rig = Self.recoveryRig()
        #expect(rig.device.mode == .recovery)
        let answers = Self.upload(&rig, sample)
        #expect(answers.first?.keys == ["rc", "off"])
        #expect(answers.last == .map([("rc", .uint(0)), ("off", .uint(UInt64(sample.count)))]))
        #expect(rig.device.validImage(inSlot: 0) == sample)

        let list = try unwrap(rig.request(.request(write: false, group: 1, command: 0)).first?.body)
        let entry = try unwrap(list["images"]?.array?.first)
        #expect(entry.keys == ["slot", "hash", "version"])
        #expect(entry["hash"]?.bytes == Samples.hex("5c4fd4450dc19689d038b5407d643ab70079f9f2c89cca2a9f3de4ca692a1b82"))

        #expect(rig.request(.request(write: true, group: 0, command: 5)).first?.body == .map([("rc", .uint(0))]))
        rig.settle()
        #expect(rig.device.mode == .application)
        #expect(rig.device.runningVersion?.description == "1.1.0")
        #expect(rig.device.runningImageConfirmed)
    }

    @Test func anUnalignedChunkIsCutToTheWriteBlockAndTheRestAskedForAgain() {
        var rig = Self.recoveryRig()
        let image = Samples.image(major: 1, minor: 2, bodySize: 1001)  // 1069 bytes
        let answers = Self.upload(&rig, image, chunk: 250)
        #expect(answers.prefix(3).map { $0["off"]?.uint } == [248, 496, 744])
        #expect(answers.last?["off"]?.uint == UInt64(image.count))  // the end is padded, not cut
        #expect(rig.device.validImage(inSlot: 0) == image)
    }

    @Test func uploadRulesOfBsUpload() {
        var rig = Self.recoveryRig()
        let image = Samples.image(major: 1, minor: 2, bodySize: 300)  // 372 bytes
        func send(_ pairs: [(String, TestCBOR)]) -> TestCBOR? {
            rig.request(.request(write: true, group: 1, command: 1, .map(pairs))).first?.body
        }
        #expect(send([("off", .uint(0)), ("len", .uint(0x78000)), ("data", .bytes([1, 2, 3, 4]))]) == .map([("rc", .uint(3))]))
        #expect(send([("off", .uint(0)), ("data", .bytes([1, 2, 3, 4]))]) == .map([("rc", .uint(3))]))  // no len
        #expect(send([("off", .uint(0)), ("image", .uint(1)), ("len", .uint(8)), ("data", .bytes([1, 2, 3, 4]))])
            == .map([("rc", .uint(3))]))
        #expect(send([("len", .uint(8)), ("data", .bytes([1, 2, 3, 4]))]) == .map([("rc", .uint(3))]))  // no off
        #expect(send([("off", .uint(0)), ("len", .uint(UInt64(image.count))), ("data", .bytes(Array(image.prefix(256))))])
            == .map([("rc", .uint(0)), ("off", .uint(256))]))
        #expect(send([("off", .uint(999)), ("data", .bytes([0]))]) == .map([("rc", .uint(0)), ("off", .uint(256))]))
        // Past the announced length: refused, the offset stays.
        #expect(send([("off", .uint(256)), ("data", .bytes([UInt8](repeating: 0, count: 200)))]) == .map([("rc", .uint(3))]))
        #expect(send([("off", .uint(256)), ("data", .bytes(Array(image[256...])))]) == .map([("rc", .uint(0)), ("off", .uint(372))]))
        // More than MCUBOOT_SERIAL_MAX_RECEIVE_SIZE decoded: dropped without an answer.
        #expect(send([("off", .uint(0)), ("data", .bytes([UInt8](repeating: 0, count: 1100)))]) == nil)
    }

    @Test func commandsRecoveryDoesNotKnowAnswerENOTSUP() {
        var rig = Self.recoveryRig()
        let rc8 = TestCBOR.map([("rc", .uint(8))])
        #expect(rig.request(.request(write: false, group: 9, command: 0)).first?.body == rc8)
        #expect(rig.request(.request(write: false, group: 1, command: 3)).first?.body == rc8)
        #expect(rig.request(.request(write: true, group: 1, command: 0, .map([("confirm", .bool(true))]))).first?.body == rc8)
        #expect(rig.request(.request(write: true, group: 0, command: 0, .map([("d", .text("x"))]))).first?.body == rc8)
        #expect(rig.request(.request(write: false, group: 0, command: 6)).first?.body == rc8)
        #expect(rig.request(.request(write: true, group: 0, command: 1)).first?.body == .map([("rc", .uint(0))]))
        // An op that is not a request: ignored, no answer.
        #expect(rig.request(TestSMP(op: 3, group: 0, command: 0, payload: TestCBOR.map([]).encoded)).isEmpty)
    }

    @Test func echoAndParametersWhenBuiltIn() {
        var rig = Self.recoveryRig { $0.recoveryEcho = true; $0.recoveryMCUmgrParameters = true }
        let long = String(repeating: "e", count: 200)
        let answer = rig.request(.request(write: true, group: 0, command: 0, version: 1, .map([("d", .text(long))]))).first
        #expect(answer?.body == .map([("r", .text(long))]))
        #expect(answer?.version == 1)
        #expect(rig.reader.lineLengths.suffix(3).first == 127)  // 124 characters a line
        #expect(rig.request(.request(write: true, group: 0, command: 0, .map([])))
            .first?.body == .map([("rc", .uint(3))]))
        #expect(rig.request(.request(write: true, group: 0, command: 0, .map([("d", .text("a")), ("x", .uint(1))])))
            .first?.body == .map([("rc", .uint(3))]))  // "d" must be the last entry
        #expect(rig.request(.request(write: false, group: 0, command: 6)).first?.body
            == .map([("buf_size", .uint(1024)), ("buf_count", .uint(1))]))
    }

    @Test func imageStateWhenBuiltInListsFlagsAndMarksTheSecondaryPending() throws {
        var rig = Self.recoveryRig { $0.recoveryImageState = true }
        let list = try unwrap(rig.request(.request(write: false, group: 1, command: 0)).first?.body)
        #expect(list["images"]?.array?.first?.keys == ["bootable", "confirmed", "active", "slot", "hash", "version"])
    }

    @Test func linesArrivingDuringAFullSlotEraseOverflowTheLineBuffers() {
        var rig = Self.recoveryRig { $0.recoveryEraseProgressively = false }
        let image = Samples.image(major: 1, minor: 2, bodySize: 4000)
        let first = TestSMP.request(write: true, group: 1, command: 1, .map([
            ("len", .uint(UInt64(image.count))), ("off", .uint(0)), ("data", .bytes(Array(image.prefix(600)))),
        ]))
        let second = TestSMP.request(write: true, group: 1, command: 1, .map([
            ("off", .uint(600)), ("data", .bytes(Array(image[600..<1200]))),
        ]))
        let third = TestSMP.request(write: true, group: 1, command: 1, .map([
            ("off", .uint(1200)), ("data", .bytes(Array(image[1200..<1800]))),
        ]))
        rig.send(TestConsole.frame(first.bytes) + TestConsole.frame(second.bytes) + TestConsole.frame(third.bytes))
        rig.settle()
        #expect(rig.device.counters.recoveryBytesDroppedNoBuffer > 0)
        let offsets = rig.reader.packets.compactMap { TestSMP(parsing: $0)?.body?["off"]?.uint }
        #expect(offsets.first == 600)
        #expect(offsets.count < 3)
    }

    @Test func aCRLFLineIsABase64ErrorForMCUboot() {
        var rig = Self.recoveryRig()
        var frame = TestConsole.frame(TestSMP.request(write: false, group: 1, command: 0).bytes)
        frame.insert(UInt8(ascii: "\r"), at: frame.count - 1)
        rig.send(frame)
        rig.settle()
        #expect(rig.reader.packets.isEmpty)
    }

    @Test func rawRecoveryProtocol() {
        var rig = Self.recoveryRig { $0.recoveryFraming = .raw }
        let answer = rig.request(.request(write: false, group: 1, command: 0), raw: true).first
        #expect(answer?.body?["images"]?.array?.count == 1)
        // Half a packet, then silence longer than the input timeout: thrown away.
        let partial = Array(TestSMP.request(write: false, group: 1, command: 0).bytes.prefix(5))
        rig.send(partial)
        rig.wait(.seconds(4))
        #expect(rig.request(.request(write: false, group: 1, command: 0), raw: true).count == 1)
        #expect(rig.device.counters.rawInputTimeouts == 1)
    }

    @Test func noBootableImageStopsMCUbootUnlessRecoveryIsAllowed() {
        var broken = Samples.image(major: 1, minor: 0)
        broken[40] ^= 0xFF
        let stopped = SerialRig(.test(broken))
        #expect(stopped.device.mode == .halted)
        #expect(!stopped.log.contains(.attach))  // USB CDC ACM never comes back
        var config = MCUmgrSerialConfiguration.test(broken)
        config.recoveryWhenNoApplication = true
        let rescued = SerialRig(config)
        #expect(rescued.device.mode == .recovery)
    }

    @Test func theRecoveryButtonIsCheckedBeforeAnySwap() {
        var rig = SerialRig(.test())
        let image = Samples.image(major: 5, minor: 0)
        rig.upload(image)
        _ = rig.setImageState(hash: Samples.hash(of: image), confirm: false)
        rig.log += rig.device.pressReset(now: rig.now, holdingRecoveryButton: true)
        rig.settle()
        #expect(rig.device.mode == .recovery)
        #expect(rig.device.counters.swaps == 0)
        #expect(rig.device.secondaryPending)
    }
}
