import Testing
@testable import Transport

/// Links sharing one modelled adapter (`MemoryAdapter`): each gets its share of the one radio and
/// together they stay within the adapter's capacity. On a manual clock, with every write already in
/// the controller's buffers (256 of them) before the test moves the clock: the radio then plays its
/// schedule from full buffers, every link has asked for the radio before the clock moves, and the
/// rates, taken from the event anchors it played (`MemoryLinkStatistics`), are exact whatever the
/// host's pace. (On the unpaced clock the radio
/// can run ahead of a late writer and end events early; seen in 1 run in 3 here, with or without
/// an adapter: the host's pace, not the schedule this suite checks.)
@Suite(.serialized, .timeLimit(.minutes(1))) struct MemoryAdapterTests {
    /// 2M, MTU 498, 15 ms: one link alone gets 10 slots of 1392 µs per event (5 writes); two links
    /// get a 7.5 ms window each, 5 slots: exactly half each.
    static let twoLinkProfile = try! LinkProfile(connectionInterval: .milliseconds(15), txBufferCount: 256)
    /// 2M, MTU 498, 60 ms: eight 7.5 ms windows of 5 slots (the fast2M event) hold 40 of the 43
    /// slots one link alone would get.
    static let eightLinkProfile = try! LinkProfile(connectionInterval: .milliseconds(60), txBufferCount: 256)
    /// fast2M with the buffers above.
    static let aloneProfile = try! LinkProfile(txBufferCount: 256)

    @Test func aLinkAloneOnAnAdapterGetsWhatItGetsWithout() async throws {
        let profile = Self.aloneProfile
        // 2.5 writes per 7.5 ms event: 100 writes are 40 events.
        let alone = try await rates(links: 1, profile: profile, adapter: true, writes: 100).aggregate
        let without = try await rates(links: 1, profile: profile, adapter: false, writes: 100).aggregate
        #expect(abs(alone / without - 1) < 0.001, "alone on an adapter \(alone) B/s, without \(without) B/s")
        #expect(abs(alone / MemoryAdapter.capacity(for: profile) - 1) < 0.001)
    }

    @Test func twoLinksGetHalfTheRadioEach() async throws {
        let profile = Self.twoLinkProfile
        let capacity = MemoryAdapter.capacity(for: profile)
        // 2.5 writes per 7.5 ms window: 100 writes are 40 intervals of 15 ms.
        let measured = try await rates(links: 2, profile: profile, adapter: true, writes: 100)
        for rate in measured.perLink {
            #expect(abs(rate / (capacity / 2) - 1) < 0.01, "\(Int(rate)) B/s of \(Int(capacity)) B/s")
        }
        #expect(measured.aggregate <= capacity * 1.001, "together \(Int(measured.aggregate)) B/s of \(Int(capacity)) B/s")
    }

    @Test func eightLinksGetAnEighthEachAndStayWithinCapacity() async throws {
        let profile = Self.eightLinkProfile
        let capacity = MemoryAdapter.capacity(for: profile)
        // 2.5 writes per 7.5 ms window: 50 writes are 20 intervals of 60 ms.
        let measured = try await rates(links: 8, profile: profile, adapter: true, writes: 50)
        let expected = capacity * 40 / 43 / 8
        for rate in measured.perLink {
            #expect(abs(rate / expected - 1) < 0.01, "\(Int(rate)) B/s, expected \(Int(expected)) B/s")
        }
        // The links' windows are staggered by 7.5 ms, so the whole span is 20 intervals + 7 windows.
        #expect(measured.aggregate <= capacity * 1.001, "together \(Int(measured.aggregate)) B/s of \(Int(capacity)) B/s")
        #expect(measured.aggregate >= capacity * 0.85)
    }

    @Test func aLinkThatLeavesFreesItsWindow() async throws {
        let clock = LinkClock.manual()
        let adapter = MemoryAdapter(clock: clock)
        let connector = MemoryConnector(clock: clock, adapter: adapter)
        var links: [any Link] = []
        for index in 0 ..< 3 {
            let peer = PeerIdentity("AA:BB:CC:DD:EE:0\(index)")
            await connector.register(RecordingPeripheral(clock: clock), as: peer, profile: Self.twoLinkProfile)
            links.append(try await connector.connect(to: peer, deadline: .now + .seconds(5)))
        }
        #expect(await adapter.connectionCount == 3)
        await links[1].disconnect()
        // `drop` leaves the adapter from a task of its own.
        for _ in 0 ..< 100 where await adapter.connectionCount != 2 { await Task.yield() }
        #expect(await adapter.connectionCount == 2)
        for link in links { await link.disconnect() }
    }

    /// Each link's rate in value bytes per second for `writes` full-size writes (a whole number of
    /// events' worth), and the aggregate. A link's time runs from its first data event's anchor to
    /// one interval after its last one; the aggregate's from the first link's first to the last
    /// link's last.
    private func rates(links count: Int, profile: LinkProfile, adapter shared: Bool,
                       writes: Int) async throws -> (perLink: [Double], aggregate: Double) {
        let clock = LinkClock.manual()
        let adapter = shared ? MemoryAdapter(clock: clock) : nil
        let connector = MemoryConnector(clock: clock, adapter: adapter)
        var devices: [RecordingPeripheral] = []
        var links: [MemoryLink] = []
        // Every link joins before any writes, so the windows are planned for all of them throughout.
        for index in 0 ..< count {
            let peer = PeerIdentity("AA:BB:CC:DD:EE:\(index < 10 ? "0" : "")\(index)")
            let device = RecordingPeripheral(clock: clock)
            await connector.register(device, as: peer, profile: profile)
            devices.append(device)
            let link = try await connector.connect(to: peer, deadline: .now + .seconds(5))
            links.append(try #require(link as? MemoryLink))
        }
        // Past the first anchor (t = 0), so no event starts before all writes are queued.
        clock.advance(by: .milliseconds(1))
        let size = profile.maxWriteWithoutResponse
        for link in links {
            for index in 0 ..< writes { try await link.writeWithoutResponse(numbered(index, size: size), to: TestGATT.smp) }
        }
        // Every link asks for the radio before any event plays (SharedAirtime: requests are served
        // in the order they arrive, and on a manual clock nothing else orders them).
        if let adapter {
            for _ in 0 ..< 10_000 where await adapter.pendingRequests < count { await Task.yield() }
            #expect(await adapter.pendingRequests == count)
        }
        clock.advance(by: .seconds(10))
        for device in devices { await device.waitForWrites(writes) }
        var perLink: [Double] = []
        var spans: [(first: Duration, last: Duration)] = []
        for link in links {
            let statistics = await link.statistics()
            let first = try #require(statistics.firstEventAt).sinceOrigin
            let last = try #require(statistics.lastEventAt).sinceOrigin + profile.connectionInterval
            perLink.append(Double(statistics.valueBytesWritten) / (last - first).seconds)
            spans.append((first, last))
            await link.disconnect()
        }
        let whole = (spans.map(\.last).max() ?? .zero) - (spans.map(\.first).min() ?? .zero)
        return (perLink, Double(count * writes * size) / whole.seconds)
    }
}
