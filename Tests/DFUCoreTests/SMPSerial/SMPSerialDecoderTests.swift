import Testing
@testable import DFUCore

@Suite struct SMPSerialDecoderTests {
    @Test func everySizeFromEmptyTo3000BytesRoundTrips() throws {
        var decoder = SMPSerialDecoder()
        for count in 0...3000 {
            let packet = samplePacket(count, seed: count)
            let events = decoder.receive(try framed(packet))
            #expect(events == [.packet(packet)], "size \(count)")
            #expect(decoder.isIdle)
        }
    }

    @Test func zephyrLineBreaksDecodeForEverySize() {
        var decoder = SMPSerialDecoder(maximumLineLength: 127)
        for count in 1...1500 {
            let packet = samplePacket(count, seed: 3 * count)
            #expect(decoder.receive(zephyrLines(packet).flatMap { $0 }) == [.packet(packet)], "size \(count)")
        }
    }

    /// A tty read returns any split: two chunks cut at every position, then one byte at a time.
    @Test func everySplitOfAMixedStreamGivesTheSameEvents() throws {
        let first = samplePacket(300, seed: 1), second = samplePacket(17, seed: 2)
        let stream = ascii("boot banner\n") + (try framed(first)) + ascii("uart:~$ ") + (try framed(second))
            + ascii("[00:01] <inf> done\n")
        let expected: [SMPSerialEvent] = [.text(ascii("boot banner\n")), .packet(first), .text(ascii("uart:~$ ")),
                                          .packet(second), .text(ascii("[00:01] <inf> done\n"))]
        #expect(decode(stream) == expected)
        for cut in 1..<stream.count {
            var decoder = SMPSerialDecoder()
            let events = decoder.receive(stream[..<cut]) + decoder.receive(stream[cut...])
            #expect(events == expected, "cut at \(cut)")
        }
        #expect(decode(stream, chunks: [1]) == expected)
        var random = SplitMix64(seed: 0x5E71A1)
        for _ in 0..<100 {
            let sizes = (0..<5).map { _ in 1 + random.next(below: 40) }
            #expect(decode(stream, chunks: sizes) == expected, "chunks \(sizes)")
        }
    }

    @Test func logLinesBetweenAFramesLinesAreTextAndThePacketStillArrives() throws {
        let packet = samplePacket(1000)
        let lines = try SMPSerialEncoder().lines(for: packet)
        var stream: [UInt8] = []
        var expectedText: [UInt8] = []
        for (index, line) in lines.enumerated() {
            stream += line
            let log = ascii("[00:00:0\(index)] <inf> log between lines\n")
            stream += log
            expectedText += log
        }
        for sizes in [[Int.max], [1], [5, 130, 2]] {
            let events = decode(stream, chunks: sizes)
            #expect(events.packets == [packet])
            #expect(events.text == expectedText)
            #expect(events.drops.isEmpty)
        }
    }

    @Test func markerAfterAPromptWithoutNewlineStartsAFrame() throws {
        let packet = samplePacket(40)
        let events = decode(ascii("uart:~$ ") + (try framed(packet)))
        #expect(events == [.text(ascii("uart:~$ ")), .packet(packet)])
    }

    @Test func loneControlBytesInTextStayText() throws {
        let text = [UInt8(ascii: "a"), 0x06, 0x06, 0x04, 0x04, 0x06, 0x14, 0x04, 0x09, UInt8(ascii: "b"), newline]
        let packet = samplePacket(12)
        // 0x06 0x14 and 0x04 0x09 are not markers; the marker bytes end the text only as a pair.
        let events = decode(text + (try framed(packet)) + [0x06], chunks: [1])
        #expect(events == [.text(text), .packet(packet)])
    }

    @Test func carriageReturnBeforeTheNewlineIsAccepted() throws {
        let packet = samplePacket(500)
        let stream = try SMPSerialEncoder().lines(for: packet).flatMap { $0.dropLast() + ascii("\r\n") }
        #expect(decode(stream) == [.packet(packet)])
    }

    /// MCUboot's serial recovery before v1.10 answered in one line however long.
    @Test func oneLongLineDecodesByDefaultAndIsRefusedUnderZephyrsLimit() throws {
        let packet = samplePacket(400)
        let line = try SMPSerialEncoder(maximumLineLength: 1000).encode(packet)
        #expect(line.count > 500 && line.filter { $0 == newline }.count == 1)
        #expect(decode(line) == [.packet(packet)])
        let strict = SMPSerialDecoder(maximumLineLength: 127)
        #expect(decode(line + (try framed(packet)), decoder: strict) == [.dropped(.lineTooLong(limit: 127)), .packet(packet)])
    }

    @Test func aLineOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() throws {
        let packet = samplePacket(89) // one full 127-byte line
        let line = try framed(packet)
        #expect(line.count == 127)
        #expect(decode(line, decoder: SMPSerialDecoder(maximumLineLength: 127)) == [.packet(packet)])
        #expect(decode(line, decoder: SMPSerialDecoder(maximumLineLength: 126)) == [.dropped(.lineTooLong(limit: 126))])
        let crlf = line.dropLast() + ascii("\r\n")
        #expect(decode(Array(crlf), decoder: SMPSerialDecoder(maximumLineLength: 127)) == [.dropped(.lineTooLong(limit: 127))])
    }

    @Test func longTextComesInChunksOfTheLimit() {
        let text = [UInt8](repeating: UInt8(ascii: "x"), count: 2500) + [newline]
        let events = decode(text, decoder: SMPSerialDecoder(maximumTextChunk: 1000))
        #expect(events.map { if case .text(let t) = $0 { return t.count } else { return -1 } } == [1000, 1000, 501])
        #expect(events.text == text)
    }

    @Test func textWithoutNewlineWaitsForTheNextMarkerOrNewline() {
        var decoder = SMPSerialDecoder()
        #expect(decoder.receive(ascii("partial")).isEmpty)
        #expect(decoder.bufferedByteCount == 7)
        #expect(!decoder.isIdle)
        #expect(decoder.receive(ascii(" line\n")) == [.text(ascii("partial line\n"))])
        #expect(decoder.isIdle)
    }

    @Test func resetForgetsAPartialPacket() throws {
        let packet = samplePacket(600)
        let stream = try framed(packet)
        var decoder = SMPSerialDecoder()
        #expect(decoder.receive(stream.prefix(300)).isEmpty)
        #expect(decoder.bufferedByteCount > 0)
        decoder.reset()
        #expect(decoder.isIdle && decoder.bufferedByteCount == 0)
        // The rest is continuation lines with no start: each is dropped, then the decoder is clean.
        let rest = decoder.receive(stream.dropFirst(300))
        #expect(rest.packets.isEmpty)
        #expect(decoder.receive(stream) == [.packet(packet)])
    }

    @Test func limitsAreClampedToWhatTheFramingAllows() {
        let decoder = SMPSerialDecoder(maximumPacketSize: 1_000_000, maximumLineLength: 3, maximumTextChunk: 0)
        #expect(decoder.maximumPacketSize == 65533)
        #expect(decoder.maximumLineLength == 7)
        #expect(decoder.maximumTextChunk == 1)
        // Marker, base64 of 65 537 framed bytes (87 384 characters), "\r\n".
        #expect(SMPSerialDecoder().maximumLineLength == 2 + 87_384 + 2)
    }
}
