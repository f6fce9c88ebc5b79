import DFUCore
import DeviceSim
import Testing

/// smp.c behaviour: header echo, v1/v2 error forms, unsupported versions and commands, encoding.
@Suite struct SMPProtocolTests {
    /// A raw request: header fields as given (any version or op), CBOR body.
    private func raw(version: UInt8 = 1, op: UInt8, group: UInt16, command: UInt8, sequence: UInt8,
                     body: CBORMap = [:]) -> [UInt8] {
        let bytes = body.encoded()
        return [version << 3 | op, 0, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF),
                UInt8(group >> 8), UInt8(group & 0xFF), sequence, command] + bytes
    }

    private func reply(_ h: inout DeviceHarness, _ bytes: [UInt8]) throws -> SMPPacket {
        let sequence = bytes[6]
        h.writeRaw(bytes)
        return try h.reply(to: sequence)
    }

    @Test func replyEchoesSequenceGroupCommandAndAnswersWithTheResponseOp() throws {
        var h = try DeviceHarness.make()
        let packet = try reply(&h, raw(op: 0, group: 1, command: 0, sequence: 0xA7))
        #expect(packet.header.sequence == 0xA7)
        #expect(packet.header.group == .image && packet.header.command == 0)
        #expect(packet.header.op == .readResponse && packet.header.version == .v2)
        let write = try reply(&h, raw(op: 2, group: 0, command: 0, sequence: 3, body: ["d": "hi"]))
        #expect(write.header.op == .writeResponse)
    }

    @Test func groupErrorIsErrMapInV2AndTranslatedRcInV1() throws {
        var h = try DeviceHarness.make()
        let v2 = try h.send(ImageStateWriteRequest(confirm: false).packet(sequence: h.nextSequence(), version: .v2))
        let v2Body = try SMPPacket(frame: v2).body
        #expect(v2Body["err"]?["group"] == 1 && v2Body["err"]?["rc"] == 24 && v2Body["rc"] == nil)
        #expect(v2.header.version == .v2)

        let v1 = try h.send(ImageStateWriteRequest(confirm: false).packet(sequence: h.nextSequence(), version: .v1))
        let v1Body = try SMPPacket(frame: v1).body
        #expect(v1Body == ["rc": 3])   // INVALID_HASH → MGMT_ERR_EINVAL
        #expect(v1.header.version == .v1)
        #expect(try SMPStatus(body: v1Body) == .failure(.mcumgr(.invalidValue)))
    }

    @Test func v1TranslationFollowsZephyrsTable() throws {
        var h = try DeviceHarness.make()
        try h.upload(try SimSamples.blinky("1.1.0"))
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(try SimSamples.blinky("1.1.0")))).get()
        // IMAGE_ALREADY_PENDING (28) → EBADSTATE (6); HASH_NOT_FOUND (8) → EUNKNOWN (1).
        #expect(try h.call(ImageStateWriteRequest(confirm: true), version: .v1) == .failure(.mcumgr(.badState)))
        let unknown = ImageStateWriteRequest(hash: Array(repeating: 7, count: 32))
        #expect(try h.call(unknown, version: .v1) == .failure(.mcumgr(.unknown)))
    }

    @Test func versionsAboveV2AreRefusedWithTooNewInAV2Header() throws {
        var h = try DeviceHarness.make()
        for version: UInt8 in [2, 3] {
            let packet = try reply(&h, raw(version: version, op: 0, group: 0, command: 6, sequence: version))
            #expect(packet.header.version == .v2)
            #expect(packet.body == ["rc": 13])
        }
    }

    @Test func unknownGroupCommandOrOpIsNotSupported() throws {
        var h = try DeviceHarness.make()
        let cases: [(op: UInt8, group: UInt16, command: UInt8)] = [
            (0, 64, 0),     // user group without handlers
            (0, 2, 0),      // statistics: not built in
            (0, 1, 7),      // no such image command
            (0, 1, 1),      // upload has no read handler
            (2, 0, 6),      // MCUmgr parameters has no write handler
            (1, 0, 0),      // a response op sent as a request
            (5, 0, 0),      // undefined op
        ]
        for (index, c) in cases.enumerated() {
            let packet = try reply(&h, raw(op: c.op, group: c.group, command: c.command, sequence: UInt8(index)))
            #expect(packet.body == ["rc": 8], "op \(c.op) group \(c.group) command \(c.command)")
            #expect(packet.header.op == (c.op == 0 ? .readResponse : .writeResponse))
        }
    }

    @Test func repliesUseIndefiniteLengthMapsLikeZcbor() throws {
        var h = try DeviceHarness.make()
        let frame = try h.send(ImageStateReadRequest().packet(sequence: 9))
        #expect(frame.body.first == 0xBF && frame.body.last == 0xFF)
        #expect(frame.body.contains(0x9F))    // the images array too
        let decoded = try ImageStateResponse.decodeResponse(try SMPPacket(frame: frame).body).get()
        #expect(decoded.images.count == 1)
    }

    @Test func echoAnswersTheTextAndRefusesANonTextD() throws {
        var h = try DeviceHarness.make()
        #expect(try h.call(OSEchoRequest(text: "héllo")).get().text == "héllo")
        let bad = SMPPacket(op: .write, group: .os, command: 0, sequence: h.nextSequence(), body: ["d": 5])
        #expect(try h.status(of: bad) == .failure(.mcumgr(.invalidValue)))
    }

    @Test func replyLargerThanABufferIsMessageTooLarge() throws {
        var h = try DeviceHarness.make(server: SMPServerConfiguration(bufferSize: 256))
        // The request fills a buffer exactly; the indefinite-length reply is one byte longer.
        let fits = OSEchoRequest(text: String(repeating: "x", count: 256 - 8 - 5))
        #expect(try fits.packet(sequence: 1).encoded().count == 256)
        #expect(try h.call(fits) == .failure(.mcumgr(.responseTooLarge)))
        #expect(try h.call(OSEchoRequest(text: "short")).get().text == "short")
    }

    @Test func parametersReportBufferSizeAndCount() throws {
        var h = try DeviceHarness.make(server: SMPServerConfiguration(bufferSize: 1024, bufferCount: 6))
        let params = try h.call(MCUmgrParametersRequest()).get()
        #expect(params.bufferSize == 1024 && params.bufferCount == 6)
    }

    @Test func bootloaderInfoNamesMCUbootAndItsModeAndRefusesOtherQueries() throws {
        var h = try DeviceHarness.make()
        #expect(try h.call(BootloaderInfoRequest()).get().bootloader == "MCUboot")
        let mode = try h.call(BootloaderInfoRequest.mode).get()
        #expect(mode.mcubootMode == .swapWithoutScratch)
        // A plain rc 3 even in v2 (reference §8).
        let other = try h.send(BootloaderInfoRequest(query: "colour").packet(sequence: h.nextSequence(), version: .v2))
        #expect(try SMPPacket(frame: other).body == ["rc": 3])
    }

    @Test func parameterlessCommandsIgnoreTheirBody() throws {
        var h = try DeviceHarness.make()
        var bytes = raw(op: 0, group: 1, command: 0, sequence: 44)
        bytes = Array(bytes.prefix(2)) + [0, 3] + Array(bytes[4 ..< 8]) + [0xFF, 0x00, 0x13]
        let packet = try reply(&h, bytes)
        #expect(try ImageStateResponse.decodeResponse(packet.body).get().images.count == 1)
    }

    @Test func bodyThatIsNotACBORMapIsInvalidValue() throws {
        var h = try DeviceHarness.make()
        var bytes = raw(op: 2, group: 1, command: 1, sequence: 45)
        bytes = Array(bytes.prefix(2)) + [0, 2] + Array(bytes[4 ..< 8]) + [0x82, 0x01]
        #expect(try reply(&h, bytes).body == ["rc": 3])
    }
}
