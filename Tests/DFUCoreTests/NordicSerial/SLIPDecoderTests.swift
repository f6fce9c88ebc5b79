import Testing
@testable import DFUCore

/// The sans-I/O SLIP decoder: round trips, every way of cutting the stream, noise, bad escapes
/// and the frame size cap.
@Suite struct SLIPDecoderTests {
    private static func stream(_ payloads: [[UInt8]]) -> [UInt8] { payloads.flatMap { SLIPEncoder.encode($0) } }

    @Test(arguments: SLIPSamples.adversarial)
    func adversarialPayloadsRoundTrip(payload: [UInt8]) {
        var decoder = SLIPDecoder(maximumFrameSize: 4096)
        #expect(decoder.receive(SLIPEncoder.encode(payload)) == [.frame(payload)])
        #expect(decoder.isIdle)
    }

    @Test func randomPayloadsRoundTripInOneChunk() {
        let payloads = SLIPSamples.random(count: 300, maxLength: 300, seed: 0x51_1B)
        #expect(SLIPSamples.decode(Self.stream(payloads), cuts: []) == SLIPSamples.frames(payloads))
    }

    @Test func randomPayloadsRoundTripInRandomChunks() {
        var rng = SplitMix64(seed: 0xC0DB)
        for round in 0..<50 {
            let payloads = SLIPSamples.random(count: 8, maxLength: 80, seed: UInt64(round))
            let bytes = Self.stream(payloads)
            var cuts: [Int] = []
            var offset = 0
            while true {
                offset += 1 + rng.next(below: 12)
                guard offset < bytes.count else { break }
                cuts.append(offset)
            }
            #expect(SLIPSamples.decode(bytes, cuts: cuts) == SLIPSamples.frames(payloads), "round \(round)")
        }
    }

    @Test func oneByteAtATimeGivesTheSameFrames() {
        let payloads = SLIPSamples.adversarial + SLIPSamples.random(count: 40, maxLength: 60, seed: 7)
        let bytes = Self.stream(payloads)
        #expect(SLIPSamples.decode(bytes, cuts: Array(1..<bytes.count)) == SLIPSamples.frames(payloads))
    }

    /// Every single cut and every pair of cuts through frames dense with escapes.
    @Test func everySplitOfTheStreamGivesTheSameFrames() {
        let payloads: [[UInt8]] = [[0x60, 0x09, 0x01, 0xC0], [0xDB, 0xDB, 0xC0, 0xDC], [0x01], [0xDD, 0xC0, 0xDB]]
        let bytes = Self.stream(payloads)
        let expected = SLIPSamples.frames(payloads)
        for first in 0...bytes.count {
            #expect(SLIPSamples.decode(bytes, cuts: [first]) == expected, "cut at \(first)")
            for second in first...bytes.count {
                #expect(SLIPSamples.decode(bytes, cuts: [first, second]) == expected, "cuts at \(first), \(second)")
            }
        }
    }

    @Test func emptyFramesAreSkipped() {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        #expect(decoder.receive([0xC0, 0xC0, 0xC0]).isEmpty)
        #expect(decoder.receive([0xC0, 0x01, 0xC0, 0xC0]) == [.frame([0x01])])
    }

    @Test func partialFrameIsHeldUntilItsEnd() {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        #expect(decoder.receive([0x60, 0x07, 0xDB]).isEmpty)
        #expect(decoder.bufferedByteCount == 2)
        #expect(!decoder.isIdle)
        #expect(decoder.receive([0xDC]).isEmpty)
        #expect(decoder.bufferedByteCount == 3)
        #expect(decoder.receive([0xC0]) == [.frame([0x60, 0x07, 0xC0])])
        #expect(decoder.isIdle)
    }

    @Test func resetForgetsTheUnfinishedFrame() {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        _ = decoder.receive([0x01, 0x02, 0xDB])
        decoder.reset()
        #expect(decoder.isIdle)
        #expect(decoder.receive([0xDC, 0xC0]) == [.frame([0xDC])])
    }

    @Test func noiseClosedByEndIsAFrameThatIsNoResponse() throws {
        let noise: [UInt8] = [0x00, 0x7F, 0x55, 0xC0]
        let response = NordicSerialResponse.ping(id: 3)
        let events = SLIPSamples.decode(noise + response.framed, cuts: [])
        #expect(events == [.frame([0x00, 0x7F, 0x55]), .frame(response.encoded)])
        #expect(throws: NordicSerialWireError.notAResponse(firstByte: 0x00)) { try NordicSerialResponse(decoding: [0x00, 0x7F, 0x55]) }
    }

    @Test func invalidEscapeDropsTheFrameAndResynchronisesAtItsEnd() {
        // 0xDB 0x41 is no escape; "0x42 0x43" belong to the dropped frame; the next frame survives.
        let bytes: [UInt8] = [0x60, 0xDB, 0x41, 0x42, 0x43, 0xC0] + SLIPEncoder.encode([0x60, 0x09, 0x01, 0x05])
        let expected: [SLIPDecoder.Event] = [.dropped(.invalidEscape(0x41, decodedCount: 1)), .frame([0x60, 0x09, 0x01, 0x05])]
        #expect(SLIPSamples.decode(bytes, cuts: []) == expected)
        #expect(SLIPSamples.decode(bytes, cuts: Array(1..<bytes.count)) == expected)
    }

    @Test(arguments: [UInt8(0x00), 0x01, 0xDB, 0xDE, 0xFF])
    func everyNonEscapeCodeAfterEscapeIsInvalid(byte: UInt8) {
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        #expect(decoder.receive([0x01, 0x02, 0xDB, byte]) == [.dropped(.invalidEscape(byte, decodedCount: 2))])
        #expect(decoder.bufferedByteCount == 0)
        #expect(!decoder.isIdle)
        #expect(decoder.receive([0x03, 0xDB, 0xC0]).isEmpty, "still clearing: an escape here is not judged")
        #expect(decoder.receive([0x04, 0xC0]) == [.frame([0x04])])
    }

    /// Unlike the SDK and nrfutil decoders, the END after a lone ESC still closes the frame, so
    /// the frame after it is not lost.
    @Test func escapeCutShortByEndDropsOnlyThatFrame() {
        let bytes: [UInt8] = [0x60, 0x03, 0xDB, 0xC0] + SLIPEncoder.encode([0x60, 0x04, 0x01])
        #expect(SLIPSamples.decode(bytes, cuts: []) == [.dropped(.escapeAtFrameEnd(decodedCount: 2)), .frame([0x60, 0x04, 0x01])])
        var decoder = SLIPDecoder(maximumFrameSize: 16)
        #expect(decoder.receive([0xDB, 0xC0]) == [.dropped(.escapeAtFrameEnd(decodedCount: 0))])
        #expect(decoder.isIdle)
    }

    @Test func aFrameOfExactlyTheMaximumPasses() {
        let payload = [UInt8](repeating: 0xC0, count: NordicSerialLimits.maximumResponseFrameSize)
        var decoder = SLIPDecoder(maximumFrameSize: NordicSerialLimits.maximumResponseFrameSize)
        #expect(decoder.receive(SLIPEncoder.encode(payload)) == [.frame(payload)])
    }

    @Test func anOversizeFrameIsDroppedOnceAndTheNextFrameSurvives() {
        let maximum = 8
        let oversize = [UInt8](repeating: 0x11, count: 50)
        let bytes = SLIPEncoder.encode(oversize) + SLIPEncoder.encode([0x22, 0x33])
        let expected: [SLIPDecoder.Event] = [.dropped(.frameTooLarge(maximum: maximum)), .frame([0x22, 0x33])]
        #expect(SLIPSamples.decode(bytes, cuts: [], maximumFrameSize: maximum) == expected)
        #expect(SLIPSamples.decode(bytes, cuts: Array(1..<bytes.count), maximumFrameSize: maximum) == expected)
    }

    @Test func anEscapedByteThatOverflowsIsCaught() {
        var decoder = SLIPDecoder(maximumFrameSize: 2)
        #expect(decoder.receive([0x01, 0x02, 0xDB]).isEmpty)
        #expect(decoder.receive([0xDC]) == [.dropped(.frameTooLarge(maximum: 2))])
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.receive([0x03, 0xC0, 0x04, 0xC0]) == [.frame([0x04])])
    }

    /// A line that never sends END holds at most the maximum, however much arrives.
    @Test func endlessNoiseHoldsBoundedMemory() {
        var decoder = SLIPDecoder(maximumFrameSize: NordicSerialLimits.maximumResponseFrameSize)
        var rng = SplitMix64(seed: 99)
        var drops = 0
        for _ in 0..<200 {
            let chunk = (0..<64).map { _ in UInt8(truncatingIfNeeded: rng.next()) | 0x01 }.filter { $0 != 0xC0 }
            for event in decoder.receive(chunk) {
                if case .dropped = event { drops += 1 } else { Issue.record("unexpected \(event)") }
            }
            #expect(decoder.bufferedByteCount <= NordicSerialLimits.maximumResponseFrameSize)
        }
        #expect(drops >= 1)
    }

    @Test func errorsDescribeWhatArrived() {
        #expect("\(SLIPFrameError.invalidEscape(0x41, decodedCount: 1))" == "a SLIP frame with the invalid escape 0xDB 0x41 after 1 bytes")
        #expect("\(SLIPFrameError.escapeAtFrameEnd(decodedCount: 2))" == "a SLIP frame ending in an unfinished escape after 2 bytes")
        #expect("\(SLIPFrameError.frameTooLarge(maximum: 28))" == "a SLIP frame longer than 28 bytes")
    }
}
