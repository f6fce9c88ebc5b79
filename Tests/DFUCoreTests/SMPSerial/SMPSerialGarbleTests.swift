import Testing
@testable import DFUCore

/// Each way a frame can be garbled is dropped with its reason, and the good frame after it still
/// arrives: the decoder resynchronises on the next start marker.
@Suite struct SMPSerialGarbleTests {
    let good = samplePacket(50, seed: 9)
    var goodLines: [UInt8] { (try? framed(good)) ?? [] }

    /// The events for `garbage` then a good frame, fed whole and one byte at a time (same result).
    private func afterGarbage(_ garbage: [UInt8], decoder: SMPSerialDecoder = SMPSerialDecoder())
        -> [SMPSerialEvent]
    {
        let whole = decode(garbage + goodLines, decoder: decoder)
        #expect(decode(garbage + goodLines, chunks: [1], decoder: decoder) == whole)
        #expect(whole.last == .packet(good))
        return whole
    }

    private func line(_ marker: SMPSerialMarker, _ characters: String) -> [UInt8] {
        marker.bytes + ascii(characters) + [newline]
    }

    /// A start line carrying exactly `bytes` (length field included), base64-encoded.
    private func startLine(raw bytes: [UInt8]) -> [UInt8] {
        SMPSerialMarker.start.bytes + SMPSerialBase64.encode(bytes) + [newline]
    }

    @Test func badBase64OnAStartLine() {
        #expect(afterGarbage(line(.start, "AAIA*A==")) == [.dropped(.invalidBase64(.start)), .packet(good)])
        #expect(afterGarbage(line(.start, "AAI")) == [.dropped(.invalidBase64(.start)), .packet(good)])
    }

    @Test func badBase64OnAContinuationLineDropsThePacket() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(300))
        var broken = lines[1]
        broken[10] = UInt8(ascii: "!")
        let events = afterGarbage(lines[0] + broken + lines[2])
        #expect(events == [.dropped(.invalidBase64(.continuation)), .dropped(.continuationWithoutStart), .packet(good)])
    }

    @Test func wrongCRC() throws {
        let packet = samplePacket(30)
        var framedBytes = [UInt8(0), 32] + packet
        let crc = CRC16XMODEM.checksum(packet) ^ 0x8000
        framedBytes += [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        let events = afterGarbage(startLine(raw: framedBytes))
        #expect(events == [.dropped(.crcMismatch(received: crc, computed: crc ^ 0x8000)), .packet(good)])
    }

    @Test func flippedByteInTheBodyFailsTheCRC() throws {
        var stream = try framed(samplePacket(200))
        // Change one character of the second line's base64 to another valid one.
        let index = 127 + 20
        stream[index] = stream[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let events = afterGarbage(stream)
        #expect(events.count == 2)
        guard case .dropped(.crcMismatch) = events.first else {
            Issue.record("expected a CRC mismatch, got \(events)")
            return
        }
    }

    @Test func moreBytesThanTheLengthAnnounced() {
        // Total 4: two packet bytes and the CRC, but seven bytes follow.
        let events = afterGarbage(startLine(raw: [0, 4, 1, 2, 3, 4, 5, 6, 7]))
        #expect(events == [.dropped(.longerThanAnnounced(total: 4, received: 7)), .packet(good)])
    }

    @Test func moreBytesThanAnnouncedAcrossLines() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(100))
        // Rewrite the total to 95 while the lines carry 102: the first line's 91 fit, the second's 11 do not.
        var first = try #require(SMPSerialBase64.decode(lines[0][2..<(lines[0].count - 1)]))
        first[0] = 0
        first[1] = 95
        let events = afterGarbage(startLine(raw: first) + lines[1])
        #expect(events == [.dropped(.longerThanAnnounced(total: 95, received: 102)), .packet(good)])
    }

    @Test func continuationWithoutAStart() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(300))
        #expect(afterGarbage(lines[1]) == [.dropped(.continuationWithoutStart), .packet(good)])
    }

    @Test func newStartInTheMiddleOfAPacket() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(300))
        // 304 framed bytes; the first line carries 93, 91 of them after the length.
        let events = afterGarbage(lines[0])
        #expect(events == [.dropped(.interruptedByStart(received: 91, total: 302)), .packet(good)])
    }

    @Test func overlongLineDropsThePacketInProgressAndItsOwnBytes() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(300))
        let long = SMPSerialMarker.continuation.bytes + [UInt8](repeating: UInt8(ascii: "A"), count: 400) + [newline]
        let strict = SMPSerialDecoder(maximumLineLength: 127)
        let events = afterGarbage(lines[0] + long + lines[1], decoder: strict)
        #expect(events == [.dropped(.lineTooLong(limit: 127)), .dropped(.continuationWithoutStart), .packet(good)])
    }

    @Test func overlongLineWithoutNewlineEndsAtTheNextMarker() {
        let long = SMPSerialMarker.start.bytes + [UInt8](repeating: UInt8(ascii: "Q"), count: 300)
        let events = afterGarbage(long, decoder: SMPSerialDecoder(maximumLineLength: 127))
        #expect(events == [.dropped(.lineTooLong(limit: 127)), .packet(good)])
    }

    @Test func lostNewlineIsNoticedAtTheNextMarker() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(300))
        // The first line's newline is lost: the continuation marker arrives inside it.
        let events = afterGarbage(lines[0].dropLast() + lines[1] + lines[2])
        #expect(events == [.dropped(.unterminatedLine), .dropped(.continuationWithoutStart),
                           .dropped(.continuationWithoutStart), .packet(good)])
    }

    @Test func logTextWrittenIntoTheMiddleOfALine() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(300))
        let torn = Array(lines[1].prefix(40)) + ascii("<inf> log\n") + Array(lines[1].dropFirst(40))
        let events = afterGarbage(lines[0] + torn + lines[2])
        #expect(events.packets == [good])
        #expect(events.drops.first == .invalidBase64(.continuation))
    }

    @Test func startLineWithoutRoomForTheLength() {
        #expect(afterGarbage(line(.start, "")) == [.dropped(.missingLength), .packet(good)])
        // "AA==" is one byte.
        #expect(afterGarbage(line(.start, "AA==")) == [.dropped(.missingLength), .packet(good)])
    }

    @Test func totalLengthShorterThanTheCRC() {
        #expect(afterGarbage(startLine(raw: [0, 0])) == [.dropped(.totalLengthTooShort(0)), .packet(good)])
        #expect(afterGarbage(startLine(raw: [0, 1, 0])) == [.dropped(.totalLengthTooShort(1)), .packet(good)])
    }

    @Test func packetLargerThanTheDecoderHoldsIsRefusedBeforeItIsBuffered() throws {
        let decoder = SMPSerialDecoder(maximumPacketSize: 100)
        let big = try framed(samplePacket(101))
        let events = afterGarbage(big, decoder: decoder)
        #expect(events.first == .dropped(.packetTooLarge(size: 101, maximum: 100)))
        #expect(events.last == .packet(good))
        // Exactly the maximum passes.
        let fits = samplePacket(100)
        #expect(decode(try framed(fits), decoder: decoder) == [.packet(fits)])
    }

    @Test func emptyContinuationLineChangesNothing() throws {
        let lines = try SMPSerialEncoder().lines(for: samplePacket(300))
        let packet = samplePacket(300)
        #expect(decode(lines[0] + line(.continuation, "") + lines[1] + lines[2] + lines[3]) == [.packet(packet)])
    }

    /// Random damage to a stream of frames and text never traps, never holds more than the limits,
    /// and a good frame after it always decodes.
    @Test func randomDamageNeverTrapsAndAlwaysResynchronises() throws {
        var random = SplitMix64(seed: 0x6A7B1E)
        let decoderTemplate = SMPSerialDecoder(maximumPacketSize: 2048, maximumLineLength: 127, maximumTextChunk: 256)
        for round in 0..<300 {
            var stream: [UInt8] = []
            for _ in 0..<3 {
                stream += ascii("log \(round)\n")
                stream += try framed(samplePacket(random.next(below: 1500), seed: round))
            }
            for _ in 0..<(1 + random.next(below: 8)) {
                let index = random.next(below: stream.count)
                switch random.next(below: 4) {
                case 0: stream[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: stream.remove(at: index)
                case 2: stream.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                default: stream.insert(contentsOf: [0x06, 0x09], at: index)
                }
            }
            var decoder = decoderTemplate
            var peak = 0
            for chunk in stride(from: 0, to: stream.count, by: 13) {
                _ = decoder.receive(stream[chunk..<min(chunk + 13, stream.count)])
                peak = max(peak, decoder.bufferedByteCount)
            }
            #expect(peak <= 2048 + 2 + 127 + 256)
            #expect(decoder.receive(goodLines).last == .packet(good), "round \(round)")
        }
    }

    @Test func randomBytesNeverTrapAndStayBounded() {
        var random = SplitMix64(seed: 0xBADBEEF)
        var decoder = SMPSerialDecoder(maximumPacketSize: 512, maximumLineLength: 127, maximumTextChunk: 128)
        for _ in 0..<2000 {
            // Bias towards the bytes that matter: markers, newlines, base64 characters.
            let chunk = (0..<random.next(below: 200)).map { _ -> UInt8 in
                switch random.next(below: 6) {
                case 0: return [0x06, 0x09, 0x04, 0x14][random.next(below: 4)]
                case 1: return newline
                case 2, 3: return ascii("ABCDabcd0123+/=")[random.next(below: 15)]
                default: return UInt8(truncatingIfNeeded: random.next())
                }
            }
            _ = decoder.receive(chunk)
            #expect(decoder.bufferedByteCount <= 512 + 2 + 127 + 128)
        }
        #expect(decoder.receive(goodLines).last == .packet(good))
    }
}
