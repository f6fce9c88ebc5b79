@testable import DFUCore
import Testing
import Transport

/// The SMP client core alone: what it writes, how it matches replies, and how it refuses a
/// device that breaks the protocol.
@Suite struct SMPClientCoreTests {
    let reassembling = SMPPacketBudget(maxWriteSize: 20, deviceBufferSize: 2475, deviceReassembles: true)
    let t0 = MonotonicInstant.zero

    func writes(_ actions: [SMPClientCore.Action]) -> [[UInt8]] {
        actions.compactMap { if case .write(let bytes) = $0 { return bytes } else { return nil } }
    }

    /// The request packets in `actions`' writes, reassembled.
    func requests(_ actions: [SMPClientCore.Action]) throws -> [SMPPacket] {
        var assembler = SMPFrameAssembler()
        return try writes(actions).compactMap { try assembler.append($0) }.map { try SMPPacket(frame: $0) }
    }

    func reply(to request: SMPPacket, body: CBORMap, notificationSize: Int = 20) throws -> [[UInt8]] {
        let bytes = try SMPPacket.response(to: request.header, body: body).encoded()
        return stride(from: 0, to: bytes.count, by: notificationSize).map { Array(bytes[$0..<min($0 + notificationSize, bytes.count)]) }
    }

    func echo(_ text: String) -> SMPRequestMessage { SMPRequestMessage(OSEchoRequest(text: text)) }

    @Test func sequenceNumbersCountUpAndWrap() throws {
        var core = SMPClientCore(budget: reassembling, startingSequence: 254)
        var sequences: [UInt8] = []
        for i in 0..<4 {
            let packets = try requests(core.handle(.send(SMPRequestID(UInt64(i)), echo("x"), timeout: .seconds(5)), now: t0))
            sequences += packets.map(\.header.sequence)
        }
        #expect(sequences == [254, 255, 0, 1])
    }

    @Test func splitsARequestIntoWritesOnlyWhenTheDeviceReassembles() throws {
        let long = echo(String(repeating: "a", count: 100))
        var splitting = SMPClientCore(budget: reassembling)
        let split = writes(splitting.handle(.send(SMPRequestID(1), long, timeout: .seconds(5)), now: t0))
        #expect(split.count > 1 && split.allSatisfy { $0.count <= 20 })
        #expect(split.dropLast().allSatisfy { $0.count == 20 }, "every write but the last is full")

        var single = SMPClientCore(budget: SMPPacketBudget(maxWriteSize: 200))
        #expect(writes(single.handle(.send(SMPRequestID(1), long, timeout: .seconds(5)), now: t0)).count == 1)

        var tooSmall = SMPClientCore(budget: SMPPacketBudget(maxWriteSize: 20))
        let refused = tooSmall.handle(.send(SMPRequestID(1), long, timeout: .seconds(5)), now: t0)
        #expect(refused == [.finished(SMPRequestID(1), .failure(.requestTooLarge(size: 113, limit: 20)))])
        #expect(tooSmall.requestsInFlight == 0 && tooSmall.failure == nil, "one refused request does not end the client")
    }

    @Test func reassemblesAResponseFromNotificationsAndMatchesItBySequence() throws {
        var core = SMPClientCore(budget: reassembling)
        let a = try requests(core.handle(.send(SMPRequestID(10), echo("a"), timeout: .seconds(5)), now: t0))[0]
        let b = try requests(core.handle(.send(SMPRequestID(11), echo("b"), timeout: .seconds(5)), now: t0))[0]
        // Answer b first: matching is by sequence, not order.
        var actions: [SMPClientCore.Action] = []
        for piece in try reply(to: b, body: ["r": "b"], notificationSize: 3) {
            actions += core.handle(.notification(piece), now: t0)
        }
        #expect(actions.first == .finished(SMPRequestID(11), .success(SMPPacket.response(to: b.header, body: ["r": "b"]).withLength(5))))
        let decoded = try #require(SMPRequestID(11).typedResponse(OSEchoRequest.self, from: actions))
        #expect(decoded == .success(OSEchoResponse(text: "b")))
        for piece in try reply(to: a, body: ["r": "a"]) { actions = core.handle(.notification(piece), now: t0) }
        #expect(SMPRequestID(10).typedResponse(OSEchoRequest.self, from: actions) == .success(OSEchoResponse(text: "a")))
        #expect(core.requestsInFlight == 0)
    }

    @Test func devicesErrorsAreNamedInBothForms() throws {
        var core = SMPClientCore(budget: reassembling)
        let v1 = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        let v2 = try requests(core.handle(.send(SMPRequestID(2), echo("b"), timeout: .seconds(5)), now: t0))[0]
        var actions = try reply(to: v1, body: ["rc": 8, "rsn": "off"]).flatMap { core.handle(.notification($0), now: t0) }
        #expect(actions.first == .finished(SMPRequestID(1), .failure(.refused(.returnCode(8, reason: "off")))))
        actions = try reply(to: v2, body: ["err": ["group": 0, "rc": 2]]).flatMap { core.handle(.notification($0), now: t0) }
        guard case .finished(_, .failure(.refused(let error)))? = actions.first else {
            Issue.record("expected a refusal, got \(actions)")
            return
        }
        #expect(error.osError != nil && error.description.contains("OS error 2"))
    }

    @Test func fallsBackToV1WhenTheDeviceRefusesV2AndBackWhenItRefusesV1() throws {
        var core = SMPClientCore(budget: reassembling)
        let first = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        #expect(first.header.version == .v2)
        let retried = try requests(try reply(to: first, body: ["rc": 13]).flatMap { core.handle(.notification($0), now: t0) })
        #expect(retried.count == 1 && retried[0].header.version == .v1 && retried[0].header.sequence != first.header.sequence)
        #expect(core.version == .v1)
        // Refused in v1 as well: reported, not retried again.
        let end = try reply(to: retried[0], body: ["rc": 12]).flatMap { core.handle(.notification($0), now: t0) }
        #expect(end.first == .finished(SMPRequestID(1), .failure(.refused(.mcumgr(.protocolTooOld)))))

        var v1 = SMPClientCore(budget: reassembling, configuration: .init(version: .v1))
        let old = try requests(v1.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        let up = try requests(try reply(to: old, body: ["rc": 12]).flatMap { v1.handle(.notification($0), now: t0) })
        #expect(up.first?.header.version == .v2)
    }

    @Test func versionNegotiationCanBeTurnedOff() throws {
        var core = SMPClientCore(budget: reassembling, configuration: .init(negotiatesVersion: false))
        let first = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        let actions = try reply(to: first, body: ["rc": 13]).flatMap { core.handle(.notification($0), now: t0) }
        #expect(actions.first == .finished(SMPRequestID(1), .failure(.refused(.mcumgr(.protocolTooNew)))))
    }

    @Test func deadlinesFinishRequestsAndEarlyWakeUpsDoNothing() throws {
        var core = SMPClientCore(budget: reassembling)
        let sent = core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0)
        #expect(sent.last == .timer(at: t0 + .seconds(5)))
        _ = core.handle(.send(SMPRequestID(2), echo("b"), timeout: .seconds(2)), now: t0 + .seconds(1))
        #expect(core.nextDeadline == t0 + .seconds(3))
        #expect(core.handle(.timerFired, now: t0 + .seconds(2)).isEmpty)
        let fired = core.handle(.timerFired, now: t0 + .seconds(3))
        let summary = SMPRequestMessageSummary(op: .write, group: .os, command: 0)
        #expect(fired == [.finished(SMPRequestID(2), .failure(.timeout(summary, after: .seconds(2)))), .timer(at: t0 + .seconds(5))])
        let last = core.handle(.timerFired, now: t0 + .seconds(9))
        #expect(last == [.finished(SMPRequestID(1), .failure(.timeout(summary, after: .seconds(5)))), .timer(at: nil)])
    }

    @Test func ignoresLateAndDuplicatedRepliesToRequestsItStoppedWaitingFor() throws {
        var core = SMPClientCore(budget: reassembling)
        let late = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(1)), now: t0))[0]
        _ = core.handle(.timerFired, now: t0 + .seconds(1))
        #expect(try reply(to: late, body: ["r": "a"]).flatMap { core.handle(.notification($0), now: t0 + .seconds(2)) }.isEmpty)

        let twice = try requests(core.handle(.send(SMPRequestID(2), echo("b"), timeout: .seconds(5)), now: t0))[0]
        let first = try reply(to: twice, body: ["r": "b"]).flatMap { core.handle(.notification($0), now: t0) }
        #expect(first.count == 2) // finished + timer(nil)
        #expect(try reply(to: twice, body: ["r": "b"]).flatMap { core.handle(.notification($0), now: t0) }.isEmpty)
        #expect(core.failure == nil)
    }

    /// On a line without a connection an earlier client's answers may still arrive: before this
    /// client's first answer a reply to none of its requests is dropped; after it, it is a violation.
    @Test func dropsLeftoverRepliesOnlyBeforeItsFirstAnswer() throws {
        var configuration = SMPClientCore.Configuration()
        configuration.dropsLeftoverReplies = true
        var core = SMPClientCore(budget: reassembling, configuration: configuration)
        let sent = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        var leftover = sent.header
        leftover.sequence = 77
        #expect(try reply(to: SMPPacket(header: leftover, body: [:]), body: ["r": "x"])
            .flatMap { core.handle(.notification($0), now: t0) }.isEmpty, "an unknown sequence before any answer")
        var otherCommand = sent.header
        otherCommand.command = 1
        #expect(try reply(to: SMPPacket(header: otherCommand, body: [:]), body: ["r": "x"])
            .flatMap { core.handle(.notification($0), now: t0) }.isEmpty, "our sequence, another request's answer")
        let answered = try reply(to: sent, body: ["r": "a"]).flatMap { core.handle(.notification($0), now: t0) }
        #expect(answered.contains { if case .finished(SMPRequestID(1), .success) = $0 { true } else { false } })
        _ = try requests(core.handle(.send(SMPRequestID(2), echo("b"), timeout: .seconds(5)), now: t0))
        _ = try reply(to: SMPPacket(header: leftover, body: [:]), body: ["r": "x"]).flatMap { core.handle(.notification($0), now: t0) }
        #expect(core.failure != nil, "after the first answer an unknown sequence is the device's mistake again")
    }

    @Test func failsOnResponseWithUnknownSequence() throws {
        var core = SMPClientCore(budget: reassembling)
        let sent = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        var stranger = sent.header
        stranger.sequence = 77
        let actions = try reply(to: SMPPacket(header: stranger, body: [:]), body: ["r": "a"]).flatMap { core.handle(.notification($0), now: t0) }
        let violation = SMPClientError.remoteProtocolViolation(.unexpectedSequence(stranger.responseHeader(length: 5)))
        #expect(actions == [.finished(SMPRequestID(1), .failure(violation)), .failed(violation), .timer(at: nil)])
        #expect(core.handle(.send(SMPRequestID(2), echo("b"), timeout: .seconds(5)), now: t0) == [.finished(SMPRequestID(2), .failure(violation))])
    }

    @Test func failsOnResponseFromAnotherGroupOrCommand() throws {
        var core = SMPClientCore(budget: reassembling)
        let sent = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        var other = sent.header
        other.command = 5
        let actions = try reply(to: SMPPacket(header: other, body: [:]), body: [:]).flatMap { core.handle(.notification($0), now: t0) }
        guard case .failed(.remoteProtocolViolation(.mismatchedResponse))? = actions.dropFirst().first else {
            Issue.record("expected mismatchedResponse, got \(actions)")
            return
        }
    }

    @Test(arguments: [
        ([0xFF] as [UInt8], "not valid CBOR"), ([0x01], "not a map"), ([0xA1, 0x62, 0x72, 0x63, 0x61, 0x78], "rc"),
    ])
    func failsOnResponseWithBadBody(body: [UInt8], mention: String) throws {
        var core = SMPClientCore(budget: reassembling)
        let sent = try requests(core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0))[0]
        let bytes = sent.header.responseHeader(length: UInt16(body.count)).encoded() + body
        let actions = core.handle(.notification(bytes), now: t0)
        guard case .failed(.remoteProtocolViolation(.malformedBody(_, let reason)))? = actions.dropFirst().first else {
            Issue.record("expected malformedBody, got \(actions)")
            return
        }
        #expect(reason.contains(mention))
    }

    @Test func failsOnARequestFromTheDeviceAndOnOversizedOrOverlongFrames() throws {
        let request = SMPHeader(op: .read, length: 1, group: .os, sequence: 0, command: 0)
        var a = SMPClientCore(budget: reassembling)
        #expect(a.handle(.notification(request.encoded() + [0xA0]), now: t0).first == .failed(.remoteProtocolViolation(.notAResponse(request))))

        var b = SMPClientCore(budget: reassembling, configuration: .init(maxResponseSize: 100))
        let big = SMPHeader(op: .readResponse, length: 500, group: .os, sequence: 0, command: 0)
        #expect(b.handle(.notification(big.encoded()), now: t0).first == .failed(.remoteProtocolViolation(.malformedFrame(.frameTooLarge(declared: 508, maximum: 100)))))

        var c = SMPClientCore(budget: reassembling)
        let short = SMPHeader(op: .readResponse, length: 1, group: .os, sequence: 0, command: 0)
        #expect(c.handle(.notification(short.encoded() + [0xA0, 0xA0]), now: t0).first
            == .failed(.remoteProtocolViolation(.malformedFrame(.bytesBeyondFrameEnd(expected: 9, received: 10)))))
    }

    @Test func linkLossFinishesWaitingRequestsAndANewLinkBringsANewWriteSize() throws {
        var core = SMPClientCore(budget: reassembling)
        _ = core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(5)), now: t0)
        _ = core.handle(.notification([0x03, 0x00]), now: t0) // half a header, dropped with the link
        #expect(core.handle(.linkLost, now: t0) == [.finished(SMPRequestID(1), .failure(.linkLost)), .timer(at: nil)])
        #expect(core.handle(.linkLost, now: t0).isEmpty)
        #expect(core.handle(.send(SMPRequestID(2), echo("b"), timeout: .seconds(5)), now: t0) == [.finished(SMPRequestID(2), .failure(.linkLost))])
        _ = core.handle(.linkRestored(maxWriteSize: 100), now: t0)
        #expect(core.budget.maxWriteSize == 100)
        let sent = try requests(core.handle(.send(SMPRequestID(3), echo("c"), timeout: .seconds(5)), now: t0))
        let done = try reply(to: sent[0], body: ["r": "c"]).flatMap { core.handle(.notification($0), now: t0) }
        #expect(SMPRequestID(3).typedResponse(OSEchoRequest.self, from: done) == .success(OSEchoResponse(text: "c")))
    }

    @Test func eventWithoutATransitionIsALocalProtocolViolation() {
        var connected = SMPClientCore(budget: reassembling)
        #expect(connected.handle(.linkRestored(maxWriteSize: 20), now: t0)
            == [.failed(.localProtocolViolation(event: "linkRestored", state: "connected"))])
        var disconnected = SMPClientCore(budget: reassembling)
        _ = disconnected.handle(.linkLost, now: t0)
        #expect(disconnected.handle(.notification([1]), now: t0)
            == [.failed(.localProtocolViolation(event: "notification", state: "disconnected"))])
    }

    @Test func unusableBudgetFailsEveryRequest() {
        var core = SMPClientCore(budget: SMPPacketBudget(maxWriteSize: 5))
        guard case .finished(_, .failure(.invalidBudget))? = core.handle(.send(SMPRequestID(1), echo("a"), timeout: .seconds(1)), now: t0).first else {
            Issue.record("expected invalidBudget")
            return
        }
    }

    @Test func neverReusesASequenceStillWaitingForItsAnswer() throws {
        var core = SMPClientCore(budget: reassembling)
        var seen = Set<UInt8>()
        for i in 0..<256 {
            let packets = try requests(core.handle(.send(SMPRequestID(UInt64(i)), echo(""), timeout: .seconds(5)), now: t0))
            #expect(packets.count == 1 && seen.insert(packets[0].header.sequence).inserted)
        }
        #expect(core.handle(.send(SMPRequestID(999), echo(""), timeout: .seconds(5)), now: t0) == [.finished(SMPRequestID(999), .failure(.noFreeSequence))])
    }
}

extension SMPPacket {
    /// The packet as it decodes after encoding (the header's length field filled in).
    func withLength(_ length: UInt16) -> SMPPacket {
        var copy = self
        copy.header.length = length
        return copy
    }
}

extension SMPRequestID {
    /// This request's typed result among `actions`, if it finished there.
    func typedResponse<R: SMPRequest>(_ type: R.Type, from actions: [SMPClientCore.Action]) -> Result<R.Response, SMPClientError>? {
        for case .finished(self, let result) in actions { return R.response(from: result) }
        return nil
    }
}
