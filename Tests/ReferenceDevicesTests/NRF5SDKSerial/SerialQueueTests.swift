import ReferenceDevices
import Testing
import Transport

/// Requests that come while the main loop is still busy: the scheduler queues them
/// (nrf_dfu_req_handler_on_req), a Write keeps its receive buffer until its flash write is done, and
/// the transmitter sends one answer at a time.
@Suite struct SerialQueueTests {
    /// A bootloader with the init packet executed and a data object of 4096 created, whose flash
    /// writes take `wordWrite` per word.
    static func busyBench(wordWrite: Duration) throws -> (SerialBench, [UInt8]) {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = SerialBench(try SerialUpdateTests.config { $0.timing = SDKSerialTiming(wordWrite: wordWrite) })
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
        #expect(bench.request(SerialRequestBytes.create(0x02, size: 4096)) == [0x60, 0x01, 0x01])
        return (bench, package.firmware)
    }

    @Test func writesFasterThanFlashRunOutOfBuffersAndTheNextFramesAreAppended() throws {
        var (bench, image) = try Self.busyBench(wordWrite: .milliseconds(1))
        let decoded = bench.counters.framesDecoded
        let d = stride(from: 0, to: 64, by: 16).map { Array(image[$0 ..< $0 + 16]) }
        // Four writes in one go: the first is being written (4 words, 4 ms), the next two hold the
        // other two buffers, and the fourth frame lands behind the third, op code included: one
        // Write of d2 08 d3.
        #expect(bench.raw(d.flatMap { HostSLIP.encode(SerialRequestBytes.write($0)) }).isEmpty)
        #expect(bench.counters.framesDecoded == decoded + 4)
        #expect(bench.counters.receiveBufferShortages == 2)
        bench.advance(.milliseconds(100))
        // Still no buffer was taken for the decoder: a CRC request lands behind that Write too and
        // becomes part of another Write (d2 08 d3 03), unanswered.
        #expect(bench.raw(HostSLIP.encode(SerialRequestBytes.checksum)).isEmpty)
        // That one got a buffer (block 2, freed twice by now): the next CRC request is answered.
        bench.raw(HostSLIP.encode(SerialRequestBytes.checksum))
        let answers = SerialBench.answers(in: bench.advance(.milliseconds(50)))
        let stream = d[0] + d[1] + d[2] + (d[2] + [0x08] + d[3]) + (d[2] + [0x08] + d[3] + [0x03])
        #expect(stream.count == 115)
        #expect(answers == [[0x60, 0x03, 0x01] + le32(115) + le32(crc32(stream))])
        #expect(bench.counters.requestsHandled[0x03] == 2)
    }

    @Test func writesAtLineSpeedKeepUpWithFlash() throws {
        // 16 words at 41 µs take less than a 66-byte frame's 5.7 ms at 115200 baud.
        var (bench, image) = try Self.busyBench(wordWrite: .microseconds(41))
        for start in stride(from: 0, to: 4096, by: 64) {
            bench.raw(HostSLIP.encode(SerialRequestBytes.write(image[start ..< start + 64])))
        }
        #expect(bench.request(SerialRequestBytes.checksum) == [0x60, 0x03, 0x01] + le32(4096) + le32(crc32(image.prefix(4096))))
        #expect(bench.counters.receiveBufferShortages == 0)
    }

    @Test func fullQueueLosesRequests() throws {
        var bench = SerialBench(try SerialUpdateTests.config { $0.timing = SDKSerialTiming(perRequest: .seconds(1)) })
        let pings = (1 ... 40).flatMap { HostSLIP.encode(SerialRequestBytes.ping(UInt8($0))) }
        bench.raw(pings)
        // One in the main loop, 32 queued (SCHED_QUEUE_SIZE), 7 lost.
        #expect(bench.counters.framesDropped[.schedulerFull] == 7)
        bench.advance(.seconds(40))
        let answers = bench.log.compactMap { output -> [UInt8]? in
            if case .transmit(let bytes) = output { return bytes }
            return nil
        }
        #expect(answers.count == 33)
        #expect(answers.last == [0x60, 0x09, 0x01, 33, 0xC0])
    }

    @Test func refusedDataWritesLeakTheirBuffersUntilNothingIsDecoded() throws {
        var bench = SerialBench(try SerialUpdateTests.config())
        #expect(bench.request(SerialRequestBytes.select(0x02))?.prefix(3) == [0x60, 0x06, 0x01])
        // No init command: every data Write is refused (08, unanswered without PRN) and its buffer
        // is never freed. Three buffers: the third Write leaves none for the next frame.
        for _ in 0 ..< 3 { #expect(bench.request(SerialRequestBytes.write([1, 2, 3, 4])) == nil) }
        #expect(bench.counters.writeBuffersLeaked == 3)
        #expect(bench.counters.receiveBufferShortages == 1)
        // From now on every frame is appended to that Write and handled as one: a Ping is lost.
        #expect(bench.request(SerialRequestBytes.ping(1)) == nil)
        #expect(bench.counters.requestsHandled[0x09] == nil)
    }

    @Test func answerWhileTheTransmitterIsBusyIsLost() throws {
        var bench = SerialBench(try SerialUpdateTests.config())
        // Two pings back to back: the second answer comes while the first is still on the wire.
        let answers = bench.raw(HostSLIP.encode(SerialRequestBytes.ping(1)) + HostSLIP.encode(SerialRequestBytes.ping(2)))
        #expect(answers == [[0x60, 0x09, 0x01, 0x01]])
        #expect(bench.counters.responsesLost == 1)
        #expect(bench.counters.pings == 2)
    }
}
