import Testing
import Transport

@Suite(.timeLimit(.minutes(1))) struct MemoryLinkGATTTests {
    @Test func notificationsArriveInOrderStampedWithGeneration() async throws {
        let clock = LinkClock.unpaced()
        let profile = try LinkProfile(attMTU: 247, peripheralTXBufferCount: 2, notificationLatency: .milliseconds(5))
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock,
                                            generation: LinkGeneration(7))
        let session = try #require(await device.session)
        try await link.subscribe(TestGATT.smp)
        #expect(await session.isSubscribed(TestGATT.smp))
        #expect(await device.subscriptions == [TestGATT.smp])

        let sender = Task {
            for index in 0..<300 { try await session.notify(numbered(index, size: 200), from: TestGATT.smp) }
        }
        var received: [Int] = []
        for await event in link.events {
            #expect(event.generation == LinkGeneration(7))
            guard case .notification(let characteristic, let value) = event.kind else { break }
            #expect(characteristic == TestGATT.smp)
            received.append(number(of: value))
            if received.count == 300 { break }
        }
        try await sender.value
        #expect(received == Array(0..<300))
        #expect(await link.statistics().notifications == 300)
        await link.disconnect()
    }

    @Test func notifyingBeforeSubscriptionIsRefused() async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: .fast2M, clock: clock)
        let session = try #require(await device.session)
        await #expect(throws: LinkError.notSubscribed(TestGATT.battery)) {
            try await session.notify([50], from: TestGATT.battery)
        }
        await #expect(throws: LinkError.payloadTooLarge(size: 496, limit: 495)) {
            try await link.subscribe(TestGATT.smp)
            try await session.notify([UInt8](repeating: 0, count: 496), from: TestGATT.smp)
        }
        await link.disconnect()
    }

    @Test func readsAndWritesWithResponseGoThroughDevice() async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: .typical1M, clock: clock)

        #expect(try await link.read(TestGATT.battery) == [80])
        try await link.write([1, 2, 3], to: TestGATT.control)
        #expect(await device.writes.map(\.value) == [[1, 2, 3]])

        await device.refuseWriteRequests(with: .writeNotPermitted)
        await #expect(throws: LinkError.rejected(TestGATT.control, .writeNotPermitted)) {
            try await link.write([4], to: TestGATT.control)
        }
        // The refused write reached the device too: statistics count air traffic, not acceptance.
        #expect(await link.statistics().valueBytesWritten == 4)
        await link.disconnect()
    }

    @Test func concurrentRequestsAreAnsweredOneAtATime() async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: .fast2M, clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { try await link.write(numbered(index, size: 10), to: TestGATT.control) }
                group.addTask {
                    let level = try await link.read(TestGATT.battery)
                    #expect(level == [80])
                }
            }
            try await group.waitForAll()
        }
        #expect(await device.writes.count == 20)
        await link.disconnect()
    }

    @Test func refusesOperationsTheCharacteristicDoesNotAllow() async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: .fast2M, clock: clock)

        await #expect(throws: LinkError.characteristicNotFound(TestGATT.missing)) {
            try await link.writeWithoutResponse([1], to: TestGATT.missing)
        }
        await #expect(throws: LinkError.notSupported(TestGATT.battery, missing: .writeWithoutResponse)) {
            try await link.writeWithoutResponse([1], to: TestGATT.battery)
        }
        await #expect(throws: LinkError.notSupported(TestGATT.smp, missing: .read)) {
            try await link.read(TestGATT.smp)
        }
        await #expect(throws: LinkError.payloadTooLarge(size: 496, limit: 495)) {
            try await link.writeWithoutResponse([UInt8](repeating: 0, count: 496), to: TestGATT.smp)
        }
        #expect(await device.writes.isEmpty)
        await link.disconnect()
    }

    @Test func reportsModelledConnectionFacts() async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: .fast2M, clock: clock)
        let parameters = link.parameters
        #expect(parameters.attMTU == 498 && parameters.maxWriteWithoutResponse == 495)
        #expect(parameters.phy == .le2M && parameters.connectionInterval == .microseconds(7_500))
        #expect(parameters.llPayload == 251 && parameters.peer == testPeer)
        #expect(parameters.writeCommandCeiling == LinkProfile.fast2M.writeCommandCeiling)
        #expect(link.services == TestGATT.services)
        await link.disconnect()
    }
}
