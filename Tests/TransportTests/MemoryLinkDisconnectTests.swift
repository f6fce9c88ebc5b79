import Testing
import Transport

@Suite(.timeLimit(.minutes(1))) struct MemoryLinkDisconnectTests {
    /// Collects a link's events until its stream finishes.
    static func allEvents(of link: MemoryLink) async -> [LinkEvent] {
        var events: [LinkEvent] = []
        for await event in link.events { events.append(event) }
        return events
    }

    @Test func dropAfterBytesFailsPendingWritesAndEndsStream() async throws {
        let clock = LinkClock.unpaced()
        let profile = try LinkProfile(attMTU: 247, txBufferCount: 4)
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock,
                                            faults: [.dropAfterBytes(10 * 244)])
        let events = Task { await Self.allEvents(of: link) }

        // Five writers race one sequential writer; all of them must end, none may hang.
        let outcomes = await withTaskGroup(of: LinkError?.self) { group in
            for writer in 0..<6 {
                group.addTask {
                    do throws(LinkError) {
                        for index in 0..<100 {
                            try await link.writeWithoutResponse(numbered(writer * 100 + index, size: 244), to: TestGATT.smp)
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(outcomes.allSatisfy { $0 == .disconnected(.connectionTimeout) })
        #expect(await events.value.map(\.kind) == [.disconnected(.connectionTimeout)])
        await device.waitForDisconnect()
        #expect(await device.writes.count == 10)
        #expect(await device.disconnects == [.connectionTimeout])
        #expect(await link.statistics().valueBytesWritten == 10 * 244)
        await #expect(throws: LinkError.disconnected(.connectionTimeout)) {
            try await link.writeWithoutResponse([1], to: TestGATT.smp)
        }
    }

    @Test func dropAtModelTimeEndsAnIdleLink() async throws {
        let clock = try #require(LinkClock(timeScale: 0.1))
        let device = RecordingPeripheral(clock: clock)
        let start = clock.now
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: .fast2M, clock: clock,
                                            faults: [.dropAt(.milliseconds(50))])
        #expect(await Self.allEvents(of: link).map(\.kind) == [.disconnected(.connectionTimeout)])
        #expect(clock.now >= start.advanced(by: .milliseconds(50)))
    }

    @Test func deviceRebootIsSeenAsRemoteTermination() async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: .fast2M, clock: clock)
        let session = try #require(await device.session)

        await session.disconnect()

        let events = await Self.allEvents(of: link)
        #expect(events == [LinkEvent(generation: LinkGeneration(1), kind: .disconnected(.remoteUserTerminated))])
        await #expect(throws: LinkError.disconnected(.remoteUserTerminated)) {
            try await link.read(TestGATT.battery)
        }
        await device.waitForDisconnect()
        #expect(await device.disconnects == [.localHostTerminated])
        #expect(await session.isConnected == false)
    }

    /// bluetoothd's order when a device ends the link: a Write Request fails with ATT 0x0E, Write
    /// Commands vanish into its socket, and the disconnection is reported only afterwards.
    @Test func aHostThatReportsTheDropLateFailsRequestsWithUnlikelyErrorFirst() async throws {
        let clock = try #require(LinkClock(timeScale: 0.5))
        let profile = try LinkProfile(dropReportDelay: .milliseconds(80))
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)
        let session = try #require(await device.session)
        let events = Task { await Self.allEvents(of: link) }
        let dropped = clock.now

        await session.disconnect()

        try await link.writeWithoutResponse([1, 2, 3], to: TestGATT.smp)
        await #expect(throws: LinkError.rejected(TestGATT.battery, .unlikelyError)) {
            try await link.read(TestGATT.battery)
        }
        #expect(await events.value.map(\.kind) == [.disconnected(.remoteUserTerminated)])
        #expect(clock.now >= dropped.advanced(by: .milliseconds(80)))
        await #expect(throws: LinkError.disconnected(.remoteUserTerminated)) {
            try await link.read(TestGATT.battery)
        }
        #expect(await device.writes.isEmpty)
    }

    /// An end this side asked for is known at once, whatever the delay.
    @Test func aLocalDisconnectIsReportedAtOnceDespiteTheDelay() async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: try LinkProfile(dropReportDelay: .seconds(5)),
                                            clock: clock)
        await link.disconnect()
        await #expect(throws: LinkError.disconnected(.localHostTerminated)) { try await link.read(TestGATT.battery) }
    }

    @Test func deviceFlushLetsItsLastNotificationOutBeforeRebooting() async throws {
        let clock = LinkClock.unpaced()
        let profile = try LinkProfile(attMTU: 247, peripheralTXBufferCount: 8)
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)
        let session = try #require(await device.session)
        try await link.subscribe(TestGATT.smp)

        // Eight notifications are taken by the buffers at once; without the flush they would be lost.
        for index in 0..<8 { try await session.notify(numbered(index, size: 200), from: TestGATT.smp) }
        await session.flush()
        await session.disconnect()

        let kinds = await Self.allEvents(of: link).map(\.kind)
        #expect(kinds.count == 9)
        #expect(kinds.last == .disconnected(.remoteUserTerminated))
    }

    @Test func localDisconnectFailsSuspendedWriterAndTellsDevice() async throws {
        let clock = LinkClock.manual()
        let profile = try LinkProfile(phy: .le1M, connectionInterval: .seconds(4), attMTU: 247, txBufferCount: 1)
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)
        try await link.writeWithoutResponse(numbered(0, size: 244), to: TestGATT.smp)
        let suspended = Task { try await link.writeWithoutResponse(numbered(1, size: 244), to: TestGATT.smp) }
        // The second write cannot be taken before the first slot ends, and model time stands still.
        // Whether it is already waiting or not yet started when the link closes, it must fail the
        // same way.
        await link.disconnect()
        await link.disconnect()  // a second call does nothing

        await #expect(throws: LinkError.disconnected(.localHostTerminated)) { try await suspended.value }
        #expect(await Self.allEvents(of: link).map(\.kind) == [.disconnected(.localHostTerminated)])
        await device.waitForDisconnect()
        #expect(await device.disconnects == [.remoteUserTerminated])
        #expect(await device.writes.isEmpty)
    }
}
