import Testing
@testable import DFUCore
import Transport

/// A hostile or garbled bootloader: every bad answer ends the run with a typed protocol violation,
/// never a trap or a hang. CP writes of a clean run with a 12,288-byte image and PRN off are
/// 0 Select command, 1 Set PRN 0, 2 Create, 3 Checksum, 4 Execute, 5 Select data, 6 Create 0,
/// 7 Checksum, 8 Execute, 9 Create 1, 10 Checksum, …
@Suite struct NordicHostileTests {
    static let dat = nordicTestBytes(141, seed: 21)
    static let image = nordicTestBytes(12_288, seed: 22)

    static func select(max: UInt32, offset: UInt32, crc: UInt32) -> [UInt8] {
        NordicResponse(opcode: .selectObject, outcome: .success(.objectInfo(NordicObjectInfo(maxSize: max, offset: offset, crc: crc)))).encoded
    }

    static func checksum(offset: UInt32, crc: UInt32) -> [UInt8] {
        NordicResponse(opcode: .calculateChecksum, outcome: .success(.checksum(NordicChecksum(offset: offset, crc: crc)))).encoded
    }

    func outcome(replacing write: Int, with bytes: [UInt8], prn: UInt16 = 0) -> NordicTestPair.Outcome {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, prn: prn)
        pair.replaceAnswer = [write: bytes]
        return pair.run()
    }

    @Test func anAnswerToAnotherOpcode() {
        #expect(outcome(replacing: 0, with: [0x60, 0x01, 0x01])
                == .failed(.remoteProtocolViolation(.unexpectedResponse(expected: .selectObject, received: .createObject))))
        #expect(outcome(replacing: 4, with: [0x60, 0x03, 0x01, 0, 0, 0, 0, 0, 0, 0, 0])
                == .failed(.remoteProtocolViolation(.unexpectedResponse(expected: .execute, received: .calculateChecksum))))
    }

    @Test func shortAndLongPayloads() {
        #expect(outcome(replacing: 0, with: [0x60, 0x06, 0x01, 0x00, 0x10])
                == .failed(.remoteProtocolViolation(.malformed(.payloadLength(opcode: .selectObject, result: .success, expected: 12, actual: 2)))))
        #expect(outcome(replacing: 3, with: Self.checksum(offset: 141, crc: CRC32.checksum(Self.dat)) + [0])
                == .failed(.remoteProtocolViolation(.malformed(.payloadLength(opcode: .calculateChecksum, result: .success, expected: 8, actual: 9)))))
        #expect(outcome(replacing: 2, with: [0x60]) == .failed(.remoteProtocolViolation(.malformed(.tooShort(count: 1)))))
        #expect(outcome(replacing: 2, with: []) == .failed(.remoteProtocolViolation(.malformed(.tooShort(count: 0)))))
        #expect(outcome(replacing: 2, with: [0x10, 0x01, 0x01]) == .failed(.remoteProtocolViolation(.malformed(.notAResponse(firstByte: 0x10)))))
        #expect(outcome(replacing: 2, with: [0x60, 0x09, 0x01]) == .failed(.remoteProtocolViolation(.malformed(.unknownOpcode(0x09)))))
    }

    @Test func absurdMaxSizes() {
        #expect(outcome(replacing: 0, with: Self.select(max: 0, offset: 0, crc: 0))
                == .failed(.remoteProtocolViolation(.unusableMaxSize(.command, 0))))
        #expect(outcome(replacing: 0, with: Self.select(max: 0xFFFF_FFFF, offset: 0, crc: 0))
                == .failed(.remoteProtocolViolation(.unusableMaxSize(.command, 0xFFFF_FFFF))))
        #expect(outcome(replacing: 5, with: Self.select(max: 0, offset: 0, crc: 0))
                == .failed(.remoteProtocolViolation(.unusableMaxSize(.data, 0))))
        #expect(outcome(replacing: 5, with: Self.select(max: 0x1000_0000, offset: 0, crc: 0))
                == .failed(.remoteProtocolViolation(.unusableMaxSize(.data, 0x1000_0000))))
        #expect(outcome(replacing: 5, with: Self.select(max: 4094, offset: 0, crc: 0))
                == .failed(.remoteProtocolViolation(.unusableMaxSize(.data, 4094))))
    }

    @Test func offsetsBeyondTheObjectTheImageOrWhatWasSent() {
        #expect(outcome(replacing: 0, with: Self.select(max: 256, offset: 257, crc: 0))
                == .failed(.remoteProtocolViolation(.offsetBeyondObject(.command, offset: 257, limit: 256))))
        #expect(outcome(replacing: 5, with: Self.select(max: 4096, offset: 12_292, crc: 0))
                == .failed(.remoteProtocolViolation(.offsetBeyondObject(.data, offset: 12_292, limit: 12_288))))
        let six = CRC32.checksum(Self.image.prefix(6))
        #expect(outcome(replacing: 5, with: Self.select(max: 4096, offset: 6, crc: six))
                == .failed(.remoteProtocolViolation(.misalignedOffset(6))))
        #expect(outcome(replacing: 3, with: Self.checksum(offset: 200, crc: 0))
                == .failed(.remoteProtocolViolation(.offsetBeyondSent(offset: 200, sent: 141))))
        #expect(outcome(replacing: 7, with: Self.checksum(offset: 4100, crc: 0))
                == .failed(.remoteProtocolViolation(.offsetBeyondSent(offset: 4100, sent: 4096))))
        let hundred = CRC32.checksum(Self.image.prefix(100))
        #expect(outcome(replacing: 10, with: Self.checksum(offset: 100, crc: hundred))
                == .failed(.remoteProtocolViolation(.offsetBeforeObject(offset: 100, objectStart: 4096))))
    }

    @Test func aNotificationWhileNothingIsOutstanding() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.injectAfterWrite = [6: Self.checksum(offset: 0, crc: 0)] // while object 0 streams with PRN off
        #expect(pair.run() == .failed(.remoteProtocolViolation(.unsolicitedNotification(.calculateChecksum))))

        var late = NordicTestPair(initPacket: Self.dat, image: Self.image)
        late.injectAfterWrite = [1: [0x60, 0x02, 0x01]] // a second Set PRN answer, then the Create's
        #expect(late.run() == .failed(.remoteProtocolViolation(.unexpectedResponse(expected: .createObject, received: .setPRN))))
    }

    @Test func aRefusedPRNIsARefusal() {
        #expect(outcome(replacing: 1, with: [0x60, 0x02, 0x03])
                == .failed(.refused(.setPRN(0), NordicRemoteError(result: .invalidParameter))))
    }

    @Test func notificationsAfterTheEndAreIgnored() {
        var core = NordicTransferCore(initPacket: Self.dat, firmware: Self.image,
                                      configuration: NordicTransferConfiguration(packetSize: 244))
        _ = core.handle(.start, now: .zero)
        _ = core.handle(.controlPointNotification([0x60, 0x06]), now: .zero)
        #expect(core.isFinished)
        #expect(core.handle(.controlPointNotification([0x60, 0x06, 0x01]), now: .zero).isEmpty)
        #expect(core.handle(.linkLost, now: .zero).isEmpty)
        #expect(core.handle(.timerFired, now: .zero + .seconds(100)).isEmpty)
    }

    /// Random bytes in place of answers, and random notifications injected, at random points:
    /// never a trap, never a hang; each run completes with the image or fails with a typed reason
    /// that is the device's (not `localProtocolViolation`, not `invalidJob`).
    @Test(arguments: 1...4)
    func fuzzedNotificationsEndInATypedFailure(batch: Int) {
        let opcodes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x06, 0x0C, 0x08]
        var violations = 0
        for run in 0..<100 {
            let seed = UInt64(batch * 10_000 + run)
            var rng = SplitMix64(seed: seed)
            let image = nordicTestBytes(4 * (1 + rng.next(below: 3_000)), seed: seed)
            var pair = NordicTestPair(initPacket: nordicTestBytes(1 + rng.next(below: 200), seed: seed + 1), image: image,
                                      packetSize: [20, 64, 244][rng.next(below: 3)], prn: [0, 1, 4][rng.next(below: 3)],
                                      dataMaxSize: [512, 4096][rng.next(below: 2)])
            func garbage() -> [UInt8] {
                var bytes = (0..<rng.next(below: 17)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                if bytes.count > 0 && rng.next(below: 4) != 0 { bytes[0] = 0x60 }
                if bytes.count > 1 && rng.next(below: 2) == 0 { bytes[1] = opcodes[rng.next(below: opcodes.count)] }
                if bytes.count > 2 && rng.next(below: 3) == 0 { bytes[2] = 0x01 }
                return bytes
            }
            for _ in 0..<(1 + rng.next(below: 3)) {
                if rng.next(below: 2) == 0 {
                    pair.replaceAnswer[rng.next(below: 20)] = garbage()
                } else {
                    pair.injectAfterWrite[rng.next(below: 20)] = garbage()
                }
            }
            let outcome = pair.run(maxSteps: 100_000)
            switch outcome {
            case .completed:
                if let completed = pair.device.completedImage { #expect(completed == image, "seed \(seed)") }
            case .failed(.localProtocolViolation), .failed(.invalidJob), .stuck, .tooManySteps:
                Issue.record("seed \(seed): \(outcome)")
            case .failed(.remoteProtocolViolation):
                violations += 1
            case .failed:
                break
            }
            #expect(pair.failedActions <= 1, "seed \(seed)")
        }
        #expect(violations >= 50, "batch \(batch): only \(violations) violations found")
    }
}
