import Testing
@testable import DFUCore

/// A device that lies, refuses or talks garbage: every path ends in one clear failure, never a
/// crash or a hang.
@Suite struct UploadHostileDeviceTests {
    func run(_ image: [UInt8] = uploadTestImage(30_000), window: Int = 3,
             fault: @escaping (Int, ImageUploadRequest?) -> UploadRequestFault) throws -> UploadTestPair {
        var pair = try UploadTestPair(image: image, window: window)
        pair.fault = fault
        pair.run()
        if case .failed? = pair.outcome {
            #expect(pair.failedActions == 1, "one failure, reported once")
        } else {
            #expect(pair.failedActions == 0)
        }
        #expect(pair.core.isFinished)
        return pair
    }

    @Test func rejectsReplyWithOffsetBeyondLength() throws {
        let pair = try run { index, _ in index == 3 ? .answerBody(["off": 30_001]) : .none }
        #expect(pair.outcome == .failed(.remoteProtocolViolation(.offsetBeyondLength(offset: 30_001, length: 30_000))))
    }

    @Test func rejectsFirstPacketReplyWithOffsetBeyondLength() throws {
        let pair = try run { index, _ in index == 1 ? .answerBody(["off": .unsigned(.max)]) : .none }
        #expect(pair.outcome?.uploadError == .remoteProtocolViolation(.offsetBeyondLength(offset: .max, length: 30_000)))
    }

    @Test func rejectsReplyWithOffsetBeyondEverythingSent() throws {
        let pair = try run(uploadTestImage(100_000)) { index, _ in index == 2 ? .answerBody(["off": 99_000]) : .none }
        guard case .failed(.remoteProtocolViolation(.offsetBeyondSent(99_000, let sent)))? = pair.outcome else {
            Issue.record("expected offsetBeyondSent, got \(String(describing: pair.outcome))")
            return
        }
        #expect(sent < 99_000)
    }

    // Busy (rc 10) is not a refusal: it is waited for and asked again (UploadBusyTests).
    @Test(arguments: [
        SMPError.image(.imageDataOverrun), .image(.noFreeSlot), .image(.imageTooLarge),
        .image(.currentVersionIsNewer, reason: "downgrade"), .mcumgr(.badState), .returnCode(300, reason: nil),
    ])
    func failsWithTheDevicesNamedError(error: SMPError) throws {
        let pair = try run { index, _ in index == 1 || index == 4 ? .answerError(error) : .none }
        #expect(pair.outcome == .failed(.refused(error, offset: 0)))
        let description = pair.outcome?.uploadError?.description ?? ""
        if let name = error.imageError?.name ?? error.mcumgrError?.name {
            #expect(description.contains(name))
        }
    }

    @Test func refusalMidUploadNamesTheOffset() throws {
        let pair = try run(window: 1) { index, _ in index == 3 ? .answerError(.image(.flashWriteFailed)) : .none }
        // The refused request is the one after the last the device handled.
        let handled = try #require(pair.deviceRequests.last)
        let offset = handled.offset + UInt64(handled.data.count)
        #expect(pair.outcome == .failed(.refused(.image(.flashWriteFailed), offset: offset)))
    }

    @Test func failsOnReplyWithoutOffset() throws {
        let pair = try run { index, _ in index == 2 ? .answerBody(["match": true]) : .none }
        guard case .failed(.remoteProtocolViolation(.malformedBody(let header, let reason)))? = pair.outcome else {
            Issue.record("expected malformedBody, got \(String(describing: pair.outcome))")
            return
        }
        #expect(header.group == .image && reason.contains("off"))
    }

    @Test(arguments: [[0xFF], [0x1B, 0, 0], [0x82, 0x01, 0x02], [0xA1, 0x63, 0x6F, 0x66, 0x66]] as [[UInt8]])
    func failsOnReplyWhoseBodyIsNotACBORMap(body: [UInt8]) throws {
        let pair = try run { index, _ in index == 2 ? .answerBodyBytes(body) : .none }
        guard case .failed(.remoteProtocolViolation(.malformedBody))? = pair.outcome else {
            Issue.record("expected malformedBody, got \(String(describing: pair.outcome))")
            return
        }
    }

    @Test func failsOnReplyWithWrongTypedOffset() throws {
        let pair = try run { index, _ in index == 2 ? .answerBody(["off": "1000"]) : .none }
        guard case .failed(.remoteProtocolViolation(.malformedBody))? = pair.outcome else {
            Issue.record("expected malformedBody, got \(String(describing: pair.outcome))")
            return
        }
    }

    @Test func failsOnReplyToARequestNeverSent() throws {
        let header = SMPHeader(version: .v2, op: .writeResponse, length: 4, group: .image, sequence: 200, command: 1)
        let pair = try run { index, _ in index == 2 ? .answerBytes(header.encoded() + [0xA1, 0x61, 0x72, 0x00]) : .none }
        guard case .failed(.remoteProtocolViolation(.unexpectedSequence(let got)))? = pair.outcome else {
            Issue.record("expected unexpectedSequence, got \(String(describing: pair.outcome))")
            return
        }
        #expect(got.sequence == 200)
    }

    @Test func failsOnReplyWithLyingLength() throws {
        // Announces 60 000 body bytes: more than any response we reassemble.
        let header = SMPHeader(version: .v2, op: .writeResponse, length: 60_000, group: .image, sequence: 1, command: 1)
        let pair = try run { index, _ in index == 2 ? .answerBytes(header.encoded()) : .none }
        #expect(pair.outcome == .failed(.remoteProtocolViolation(.malformedFrame(.frameTooLarge(declared: 60_008, maximum: 16_384)))))
    }

    @Test func failsOnNotificationRunningPastItsPacket() throws {
        let header = SMPHeader(version: .v2, op: .writeResponse, length: 1, group: .image, sequence: 1, command: 1)
        let pair = try run { index, _ in index == 2 ? .answerBytes(header.encoded() + [0xA0, 0xA0]) : .none }
        #expect(pair.outcome == .failed(.remoteProtocolViolation(.malformedFrame(.bytesBeyondFrameEnd(expected: 9, received: 10)))))
    }

    @Test func failsOnReplyFromAnotherCommand() throws {
        let pair = try run { index, _ in
            index == 2 ? .answerBytes(SMPHeader(version: .v2, op: .writeResponse, length: 1, group: .os, sequence: 1, command: 5).encoded() + [0xA0]) : .none
        }
        guard case .failed(.remoteProtocolViolation(.mismatchedResponse(let request, let response)))? = pair.outcome else {
            Issue.record("expected mismatchedResponse, got \(String(describing: pair.outcome))")
            return
        }
        #expect(request.group == .image && response.group == .os)
    }

    @Test func failsWhenTheDevicesImageCheckDisagrees() throws {
        let image = uploadTestImage(20_000)
        var pair = try UploadTestPair(image: image, sha: [UInt8](repeating: 0x42, count: 32))
        pair.device.checksImage = true
        #expect(pair.run() == .failed(.imageMismatch))
    }

    @Test func garbageNotificationsNeverCrashOrHang() throws {
        var rng = SplitMix64(seed: 7)
        for round in 0..<300 {
            let count = Int.random(in: 1...40, using: &rng)
            let garbage = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let target = Int.random(in: 1...6, using: &rng)
            let pair = try run(uploadTestImage(15_000, seed: UInt64(round))) { index, _ in
                index == target ? .answerBytes(garbage) : .none
            }
            // Garbage either fails the upload with a violation or, if it is an incomplete packet,
            // leaves the request unanswered until its deadline; either way the run ends.
            switch pair.outcome {
            case .completed?, .failed(.remoteProtocolViolation)?, .failed(.timeout)?, .failed(.retriesExhausted)?:
                break
            default:
                Issue.record("round \(round): \(String(describing: pair.outcome))")
            }
        }
    }
}
