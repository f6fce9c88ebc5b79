import Testing
import Transport

@Suite(.timeLimit(.minutes(1))) struct MemoryLinkFlowControlTests {
    @Test func writerSuspendsWhileControllerBuffersAreFull() async throws {
        // A 4 s interval at 10× speed: the first connection event is 400 ms of real time away, ample
        // for four writes to be taken by the 4 buffers while nothing has gone on air.
        let clock = try #require(LinkClock(timeScale: 0.1))
        let profile = try LinkProfile(phy: .le1M, connectionInterval: .seconds(4), attMTU: 247, txBufferCount: 4)
        let device = RecordingPeripheral(clock: clock)
        let start = clock.now
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)

        for index in 0..<4 { try await link.writeWithoutResponse(numbered(index, size: 244), to: TestGATT.smp) }
        let sentBeforeFifth = await link.statistics().centralPDUs
        try await link.writeWithoutResponse(numbered(4, size: 244), to: TestGATT.smp)
        let afterFifth = clock.now

        // The fifth waited for the first slot (2468 µs after the event at +4 s) to free a buffer.
        #expect(sentBeforeFifth == 0)
        #expect(afterFifth >= start.advanced(by: .microseconds(4_002_468)))
        #expect(await link.statistics().centralPDUs >= 1)
        await device.waitForWrites(5)
        #expect(await device.writes.map { number(of: $0.value) } == [0, 1, 2, 3, 4])
        await link.disconnect()
    }

    @Test func fastWriterLosesNothingAndKeepsOrder() async throws {
        // Two-PDU writes through 3 buffers, so writes are often half placed when the writer waits.
        let clock = LinkClock.unpaced()
        let profile = try LinkProfile(attMTU: 498, txBufferCount: 3)
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)

        for index in 0..<500 { try await link.writeWithoutResponse(numbered(index, size: 495), to: TestGATT.smp) }
        await device.waitForWrites(500)

        #expect(await device.writes.map { number(of: $0.value) } == Array(0..<500))
        let statistics = await link.statistics()
        #expect(statistics.centralPDUs == 1000)
        #expect(statistics.valueBytesWritten == 500 * 495)
        await link.disconnect()
    }

    @Test func concurrentWritersEachKeepTheirOrder() async throws {
        let clock = LinkClock.unpaced()
        let profile = try LinkProfile(attMTU: 247, txBufferCount: 2)
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<100 {
                        try await link.writeWithoutResponse(numbered(writer * 1000 + index, size: 100), to: TestGATT.smp)
                    }
                }
            }
            try await group.waitForAll()
        }
        await device.waitForWrites(400)

        let received = await device.writes.map { number(of: $0.value) }
        #expect(received.count == 400)
        for writer in 0..<4 {
            #expect(received.filter { $0 / 1000 == writer } == Array((writer * 1000)..<(writer * 1000 + 100)))
        }
        await link.disconnect()
    }

    @Test func cancelledWaitingWriterIsWithdrawnAndLaterWritesFlow() async throws {
        // A 4 s interval keeps the buffer full long enough to cancel the waiting writer.
        let clock = LinkClock.realTime()
        let profile = try LinkProfile(phy: .le1M, connectionInterval: .seconds(4), attMTU: 247, txBufferCount: 1)
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)
        try await link.writeWithoutResponse(numbered(0, size: 244), to: TestGATT.smp)

        let waiting = Task { try await link.writeWithoutResponse(numbered(1, size: 244), to: TestGATT.smp) }
        waiting.cancel()
        await #expect(throws: LinkError.cancelled) { try await waiting.value }
        await link.disconnect()
        #expect(await device.writes.isEmpty)
    }
}
