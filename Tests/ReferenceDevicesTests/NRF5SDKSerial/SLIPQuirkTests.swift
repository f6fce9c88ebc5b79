import ReferenceDevices
import Testing
import Transport

/// slip.c's decoder as the serial transports use it: what a lone END, a bad escape and a frame too
/// long for the buffer do.
@Suite struct SLIPQuirkTests {
    static func bench(_ variant: SDKSerialVariant = .uart,
                      _ edit: (inout SDKSerialDeviceConfiguration) -> Void = { _ in }) throws -> SerialBench {
        SerialBench(try SerialUpdateTests.config(variant, edit))
    }

    @Test func escapedBytesArriveWholeAndAnswersAreEscaped() throws {
        var bench = try Self.bench()
        // Ping C0 and Ping DB: escaped on the way in, escaped on the way out.
        #expect(bench.raw([0x09, 0xDB, 0xDC, 0xC0]) == [[0x60, 0x09, 0x01, 0xC0]])
        #expect(bench.raw([0x09, 0xDB, 0xDD, 0xC0]) == [[0x60, 0x09, 0x01, 0xDB]])
        #expect(bench.log.contains(.transmit([0x60, 0x09, 0x01, 0xDB, 0xDC, 0xC0])))
        #expect(bench.log.contains(.transmit([0x60, 0x09, 0x01, 0xDB, 0xDD, 0xC0])))
    }

    @Test func loneENDIsAFrameWithTheOpCodeLeftInTheBuffer() throws {
        var bench = try Self.bench()
        // At start the buffer is zeroed: op code 00, Protocol Version.
        #expect(bench.raw([0xC0]) == [[0x60, 0x00, 0x01, 0x01]])
        // After a Ping 07 the same block comes back (LIFO pool): a lone END is that Ping again.
        #expect(bench.raw(HostSLIP.encode([0x09, 0x07])) == [[0x60, 0x09, 0x01, 0x07]])
        #expect(bench.raw([0xC0]) == [[0x60, 0x09, 0x01, 0x07]])
        // A leading END (as RFC 1055 suggests) thus sends an extra request before the real one, whose
        // answer is then lost: it comes while the first is still being sent.
        #expect(bench.raw([0xC0] + HostSLIP.encode([0x09, 0x08])) == [[0x60, 0x09, 0x01, 0x07]])
        #expect(bench.counters.emptyFrames == 3)
        #expect(bench.counters.framesDecoded == 5)
        #expect(bench.counters.responsesLost == 1)
    }

    @Test func badEscapeDropsTheFrameUpToTheNextEND() throws {
        var bench = try Self.bench()
        #expect(bench.raw([0x09, 0xDB, 0x01, 0x02, 0xC0]).isEmpty)
        #expect(bench.counters.framesDropped[.invalidEscape] == 1)
        #expect(bench.request(SerialRequestBytes.ping(5)) == [0x60, 0x09, 0x01, 0x05])
    }

    @Test func escapeBeforeENDSwallowsTheNextFrameToo() throws {
        var bench = try Self.bench()
        // DB C0: C0 is the bad escaped byte, not an END; the next frame's END ends the clearing.
        #expect(bench.raw([0x09, 0x01, 0xDB, 0xC0] + HostSLIP.encode([0x09, 0x02])).isEmpty)
        #expect(bench.request(SerialRequestBytes.ping(3)) == [0x60, 0x09, 0x01, 0x03])
        #expect(bench.counters.framesDecoded == 1)
    }

    @Test(arguments: SDKSerialVariant.allCases)
    func longestFrameIsOneByteShortOfTheMTU(variant: SDKSerialVariant) throws {
        var bench = try Self.bench(variant)
        // A Ping with padding: slipMTU − 1 decoded bytes still fit, the END included.
        let ping = [0x09, 0x33] + [UInt8](repeating: 0x55, count: variant.slipMTU - 3)
        #expect(bench.request(ping) == [0x60, 0x09, 0x01, 0x33])
        #expect(bench.counters.bytesLost.isEmpty)
    }

    @Test(arguments: SDKSerialVariant.allCases)
    func frameAsLongAsTheBufferJamsTheDecoderUntilReset(variant: SDKSerialVariant) throws {
        var bench = try Self.bench(variant) { $0.applicationInstalled = false }
        // slipMTU decoded bytes fill the buffer: the END is refused with NO_MEM, and so is everything
        // after it, because the index never goes back to 0.
        let ping = [0x09, 0x33] + [UInt8](repeating: 0x55, count: variant.slipMTU - 2)
        #expect(bench.request(ping) == nil)
        #expect(bench.request(SerialRequestBytes.ping(1)) == nil)
        #expect(bench.counters.bytesLost[.decoderBufferFull] == 1 + 3)
        #expect(bench.counters.framesDecoded == 0)
        // Only the inactivity timeout (120 s from the start, nrf_bootloader.c) resets the device.
        #expect(bench.device.nextDeadline == MonotonicInstant.zero.advanced(by: bench.config.bootloader.inactivityTimeout))
        bench.advance(to: bench.device.nextDeadline ?? bench.now)
        #expect(bench.device.mode == .booting)
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.request(SerialRequestBytes.ping(2)) == [0x60, 0x09, 0x01, 0x02])
    }

    @Test func frameLongerThanTheBufferIsLostAndSoIsEverythingAfter() throws {
        var bench = try Self.bench()
        let write = SerialRequestBytes.write([UInt8](repeating: 0x11, count: 200))
        #expect(bench.request(write) == nil)
        #expect(bench.counters.bytesLost[.decoderBufferFull] == 201 - 131 + 1)
        #expect(bench.request(SerialRequestBytes.ping(1)) == nil)
    }
}
