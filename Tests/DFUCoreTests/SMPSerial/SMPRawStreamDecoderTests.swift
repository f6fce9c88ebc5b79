import Testing
@testable import DFUCore

@Suite struct SMPRawStreamDecoderTests {
    let packets: [[UInt8]]

    init() throws {
        packets = [
            try OSEchoRequest(text: "hello").packet(sequence: 1).encoded(),
            try OSEchoRequest(text: String(repeating: "y", count: 700)).packet(sequence: 2).encoded(),
            try OSEchoResponse(text: "").response(to: OSEchoRequest(text: "").packet(sequence: 3).header).encoded(),
        ]
    }

    private func decodeRaw(_ stream: [UInt8], chunks size: Int, decoder: SMPRawStreamDecoder = SMPRawStreamDecoder())
        -> [SMPRawStreamEvent]
    {
        var decoder = decoder
        var events: [SMPRawStreamEvent] = []
        var start = 0
        while start < stream.count {
            let end = min(start + size, stream.count)
            events += decoder.receive(stream[start..<end])
            start = end
        }
        return events
    }

    @Test func backToBackPacketsSplitAnywhere() {
        let stream = packets.flatMap { $0 }
        let expected = packets.map(SMPRawStreamEvent.packet)
        for size in [1, 2, 7, 8, 9, 100, stream.count] {
            #expect(decodeRaw(stream, chunks: size) == expected, "chunks of \(size)")
        }
        for cut in 1..<stream.count {
            var decoder = SMPRawStreamDecoder()
            #expect(decoder.receive(stream[..<cut]) + decoder.receive(stream[cut...]) == expected)
            #expect(decoder.isIdle)
        }
    }

    @Test func headerOnlyPacketCompletesAtItsEighthByte() {
        // Zephyr's smp_hdr with a zero length: an SMP packet with no body at all.
        let bare: [UInt8] = [0x09, 0, 0, 0, 0, 0, 4, 0]
        var decoder = SMPRawStreamDecoder()
        #expect(decoder.receive(bare.prefix(7)).isEmpty)
        #expect(decoder.bufferedByteCount == 7)
        #expect(decoder.receive(bare.suffix(1)) == [.packet(bare)])
    }

    @Test func noiseBeforeAPacketIsSkippedByteByByte() throws {
        // The boot banner a bootloader might print before the raw transport starts.
        let noise = ascii("*** Booting ***\r\n")
        let events = decodeRaw(noise + packets[0], chunks: 1000)
        #expect(events.count == 2)
        guard case .skipped(let bytes, .invalidHeader) = events.first else {
            Issue.record("expected skipped noise, got \(events)")
            return
        }
        #expect(bytes == noise)
        #expect(events.last == .packet(packets[0]))
        // Fed a byte at a time the same bytes are skipped, in several runs.
        let slow = decodeRaw(noise + packets[0], chunks: 1)
        let skipped = slow.flatMap { event -> [UInt8] in
            if case .skipped(let bytes, _) = event { return bytes } else { return [] }
        }
        #expect(skipped == noise)
        #expect(slow.last == .packet(packets[0]))
    }

    @Test func aHeaderAnnouncingMoreThanTheMaximumIsSkipped() {
        let limit = SMPRawStreamDecoder(maximumPacketSize: 64)
        // Valid bits, length 100.
        let liar: [UInt8] = [0x0A, 0, 0, 100, 0, 0, 1, 0]
        let events = decodeRaw(liar + packets[0], chunks: 1000, decoder: limit)
        // Every later position inside it fails too (too large, flags set, reserved bits).
        #expect(events.first == .skipped(liar, .packetTooLarge(size: 108, maximum: 64)))
        #expect(events.last == .packet(packets[0]))
    }

    @Test func wellFormedHeadersNoSenderWritesAreSkipped() {
        // Flags set; version 3 (raw 2).
        let flagged: [UInt8] = [0x0A, 0x01, 0, 0, 0, 0, 1, 0]
        #expect(decodeRaw(flagged, chunks: 100).first == .skipped([0x0A], .unexpectedFlags(1)))
        let future: [UInt8] = [0x12, 0, 0, 0, 0, 0, 1, 0]
        #expect(decodeRaw(future, chunks: 100).first == .skipped([0x12], .reservedVersion(2)))
    }

    @Test func resetDropsAStalledPacket() {
        var decoder = SMPRawStreamDecoder()
        let partial = Array(packets[1].prefix(50))
        #expect(decoder.receive(partial).isEmpty)
        #expect(decoder.reset() == partial)
        #expect(decoder.isIdle)
        #expect(decoder.receive(packets[0]) == [.packet(packets[0])])
    }

    @Test func maximumIsClampedToWhatAHeaderCanAnnounce() {
        #expect(SMPRawStreamDecoder().maximumPacketSize == 8 + 65535)
        #expect(SMPRawStreamDecoder(maximumPacketSize: 2).maximumPacketSize == 8)
        #expect(SMPRawStreamDecoder(maximumPacketSize: 1 << 20).maximumPacketSize == 8 + 65535)
    }

    @Test func randomBytesNeverTrapAndStayBounded() {
        var random = SplitMix64(seed: 0x5A5A)
        var decoder = SMPRawStreamDecoder(maximumPacketSize: 300)
        for _ in 0..<2000 {
            let chunk = (0..<random.next(below: 100)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for event in decoder.receive(chunk) {
                if case .packet(let packet) = event {
                    #expect(packet.count <= 300)
                    #expect((try? SMPHeader(decoding: packet)) != nil)
                }
            }
            #expect(decoder.bufferedByteCount < 300)
        }
    }
}
