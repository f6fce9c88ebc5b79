import Testing
import Transport

@Suite(.timeLimit(.minutes(1))) struct MemoryLinkFlowControlTests {
    @Test func writerSuspendsWhileControllerBuffersAreFull() async throws {
        // Model time moves only when the test moves it: the first slot of the first connection
        // event cannot end on its own, so four writes fill the 4 buffers and none goes on air.
        let clock = LinkClock.manual()
        let profile = try LinkProfile(phy: .le1M, connectionInterval: .seconds(4), attMTU: 247, txBufferCount: 4)
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)

        for index in 0..<4 { try await link.writeWithoutResponse(numbered(index, size: 244), to: TestGATT.smp) }
        #expect(await link.statistics().centralPDUs == 0)
        let fifth = Task {
            try await link.writeWithoutResponse(numbered(4, size: 244), to: TestGATT.smp)
            return clock.now
        }

        // The fifth waits for the first slot (2468 µs, from the event at 0) to free a buffer.
        clock.advance(by: .microseconds(2468))
        #expect(try await fifth.value == MonotonicInstant(sinceOrigin: .microseconds(2468)))
        #expect(await link.statistics().centralPDUs == 1)
        clock.advance(by: .seconds(60))
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
        // Model time stands still (nobody moves it), so the one buffer stays full while the
        // waiting writer is cancelled.
        let clock = LinkClock.manual()
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
