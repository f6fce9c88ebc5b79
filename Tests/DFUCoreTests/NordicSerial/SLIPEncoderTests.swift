import Testing
@testable import DFUCore

/// SLIP encoding as `slip_encode` (SDK `slip.c`) and pc-nrfutil's `Slip.encode` do it: escapes
/// for END and ESC, one trailing END, no leading END.
@Suite struct SLIPEncoderTests {
    @Test func plainBytesPassThroughAndOneEndCloses() {
        #expect(SLIPEncoder.encode([0x09, 0x01]) == [0x09, 0x01, 0xC0])
        #expect(SLIPEncoder.encode([]) == [0xC0])
    }

    @Test func endAndEscapeBecomeTwoByteEscapes() {
        #expect(SLIPEncoder.encode([0xC0]) == [0xDB, 0xDC, 0xC0])
        #expect(SLIPEncoder.encode([0xDB]) == [0xDB, 0xDD, 0xC0])
        #expect(SLIPEncoder.encode([0x01, 0xC0, 0xDB, 0x02]) == [0x01, 0xDB, 0xDC, 0xDB, 0xDD, 0x02, 0xC0])
    }

    @Test func escapeCodesAloneAreNotSpecial() {
        #expect(SLIPEncoder.encode([0xDC, 0xDD]) == [0xDC, 0xDD, 0xC0])
    }

    @Test(arguments: SLIPSamples.adversarial)
    func encodedFramesHoldOneEndAtTheEndAndNoStrayEscape(payload: [UInt8]) {
        let encoded = SLIPEncoder.encode(payload)
        #expect(encoded.last == SLIPByte.end)
        #expect(encoded.dropLast().allSatisfy { $0 != SLIPByte.end })
        let escapes = payload.filter { $0 == 0xC0 || $0 == 0xDB }.count
        #expect(encoded.count == payload.count + escapes + 1)
        #expect(encoded.count <= SLIPEncoder.worstCaseEncodedCount(payloadCount: payload.count))
    }

    @Test func worstCaseIsEveryByteEscapedPlusEnd() {
        let payload = [UInt8](repeating: 0xC0, count: 65)
        #expect(SLIPEncoder.encode(payload).count == SLIPEncoder.worstCaseEncodedCount(payloadCount: 65))
        #expect(SLIPEncoder.worstCaseEncodedCount(payloadCount: 65) == Int(NordicSerialLimits.uartMTU))
    }
}
