import Testing
import Transport

@Suite(.timeLimit(.minutes(1))) struct MemoryConnectorTests {
    /// A deadline for a device that should be reachable: it only catches a hang, since a busy
    /// machine can hold these tests for seconds between two steps.
    static func soon(_ duration: Duration = .seconds(60)) -> ContinuousClock.Instant { .now + duration }

    @Test func generationIncrementsPerConnectAndStampsEvents() async throws {
        let clock = LinkClock.unpaced()
        let connector = MemoryConnector(clock: clock)
        let device = RecordingPeripheral(clock: clock)
        await connector.register(device, as: testPeer, profile: .fast2M)

        let first = try await connector.connect(to: testPeer, deadline: Self.soon())
        #expect(first.parameters.generation == LinkGeneration(1))
        await first.disconnect()
        var firstEvents: [LinkEvent] = []
        for await event in first.events { firstEvents.append(event) }
        #expect(firstEvents.map(\.generation) == [LinkGeneration(1)])

        let second = try await connector.connect(to: testPeer, deadline: Self.soon())
        #expect(second.parameters.generation == LinkGeneration(2))
        #expect(await connector.latestGeneration == LinkGeneration(2))
        await second.disconnect()
    }

    @Test func reconnectsToDeviceOnceItAdvertisesAfterReboot() async throws {
        let clock = LinkClock.unpaced()
        let connector = MemoryConnector(clock: clock)
        let device = RecordingPeripheral(clock: clock)
        await connector.register(device, as: testPeer, profile: .fast2M)
        let link = try await connector.connect(to: testPeer, deadline: Self.soon())
        let session = try #require(await device.session)

        // Reboot: stop advertising, drop the link; the engine starts reconnecting at once.
        await connector.setAdvertising(false, for: testPeer)
        await session.disconnect()
        let reconnect = Task { try await connector.connect(to: testPeer, deadline: Self.soon()) }
        var events: [LinkEvent.Kind] = []
        for await event in link.events { events.append(event.kind) }
        #expect(events == [.disconnected(.remoteUserTerminated)])

        await connector.setAdvertising(true, for: testPeer)
        let again = try await reconnect.value
        #expect(again.parameters.generation == LinkGeneration(2))
        try await again.writeWithoutResponse([1, 2], to: TestGATT.smp)
        await device.waitForWrites(1)
        await again.disconnect()
    }

    /// The engine reconnects the moment a link drops. The device must have handled the old
    /// connection's end before it is handed the new one, or it takes itself for disconnected while
    /// the new link is up (and never answers on it).
    @Test(arguments: [true, false])
    func reconnectionWaitsUntilTheDeviceHandledTheDrop(droppedByDevice: Bool) async throws {
        let clock = LinkClock.unpaced()
        let connector = MemoryConnector(clock: clock)
        let device = ConnectionLogPeripheral()
        await connector.register(device, as: testPeer, profile: .fast2M)
        var link = try await connector.connect(to: testPeer, deadline: Self.soon())
        let rounds = 100
        for _ in 0..<rounds {
            let generation = link.parameters.generation
            let reconnect = Task { try await connector.connect(to: testPeer, deadline: Self.soon()) }
            if droppedByDevice {
                try await #require(await device.session(generation)).disconnect()
            } else {
                await link.disconnect()
            }
            link = try await reconnect.value
        }
        var expected: [ConnectionLogPeripheral.Entry] = []
        for generation in (1...UInt64(rounds)).map(LinkGeneration.init) { expected += [.connected(generation), .disconnected(generation)] }
        expected.append(.connected(LinkGeneration(UInt64(rounds) + 1)))
        let log = await device.log
        let firstDifference = log.indices.first { $0 >= expected.count || log[$0] != expected[$0] }
        #expect(firstDifference == nil && log.count == expected.count,
                "from entry \(firstDifference ?? log.count) on, the device saw \(log.dropFirst(firstDifference ?? log.count).prefix(4))")
        await link.disconnect()
    }

    @Test func timesOutWhileDeviceIsNotAdvertising() async throws {
        let clock = LinkClock.unpaced()
        let connector = MemoryConnector(clock: clock)
        await connector.register(RecordingPeripheral(clock: clock), as: testPeer, profile: .fast2M, advertising: false)
        await #expect(throws: LinkError.timeout) {
            _ = try await connector.connect(to: testPeer, deadline: Self.soon(.milliseconds(50)))
        }
    }

    @Test func waitsWhileAnotherCentralHoldsTheDevice() async throws {
        let clock = LinkClock.unpaced()
        let connector = MemoryConnector(clock: clock)
        await connector.register(RecordingPeripheral(clock: clock), as: testPeer, profile: .fast2M)
        let held = try await connector.connect(to: testPeer, deadline: Self.soon())
        await #expect(throws: LinkError.timeout) {
            _ = try await connector.connect(to: testPeer, deadline: Self.soon(.milliseconds(50)))
        }
        await held.disconnect()
    }

    @Test func unknownDeviceIsNotFound() async {
        let connector = MemoryConnector(clock: .unpaced())
        await #expect(throws: LinkError.peerNotFound(PeerIdentity("nobody"))) {
            _ = try await connector.connect(to: PeerIdentity("nobody"), deadline: Self.soon())
        }
    }

    @Test func scheduledFaultHitsOnlyTheNextConnection() async throws {
        let clock = LinkClock.unpaced()
        let connector = MemoryConnector(clock: clock)
        let device = RecordingPeripheral(clock: clock)
        await connector.register(device, as: testPeer, profile: .fast2M)
        await connector.scheduleFault(.dropAfterBytes(0), for: testPeer)

        let doomed = try await connector.connect(to: testPeer, deadline: Self.soon())
        await #expect(throws: LinkError.disconnected(.connectionTimeout)) {
            for _ in 0..<100 { try await doomed.writeWithoutResponse([1], to: TestGATT.smp) }
        }
        let healthy = try await connector.connect(to: testPeer, deadline: Self.soon())
        for _ in 0..<100 { try await healthy.writeWithoutResponse([1], to: TestGATT.smp) }
        await device.waitForWrites(100)
        await healthy.disconnect()
    }
}
