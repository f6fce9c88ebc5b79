import Testing
import Transport
@testable import DFUCore

/// The async driver: plumbing between a link and the cores, with no protocol decisions of its own.
/// Its deadlines run on a hand-moved clock: none passes while the suite shares the machine with
/// slower tests, and the timeout test moves time itself.
@Suite(.timeLimit(.minutes(1))) struct SMPClientSessionTests {
    static func session(on link: SMPClientTestLink, clock: LinkClock = .manual(),
                        configuration: SMPSession.Configuration = .init()) async throws -> SMPSession {
        try await SMPSession(link: link, configuration: configuration, clock: clock)
    }

    @Test func requestReturnsTheTypedAnswer() async throws {
        let link = SMPClientTestLink()
        let session = try await Self.session(on: link)
        #expect(link.isSubscribed)
        await session.setDeviceLimits(bufferSize: 2475, reassembles: true)
        let answer = try await session.request(OSEchoRequest(text: String(repeating: "z", count: 600)))
        #expect(answer.text.count == 600, "a reply spread over several notifications")
        #expect(try await session.request(OSEchoRequest(text: "again")).text == "again")
    }

    @Test func requestThrowsTheDevicesNamedError() async throws {
        let session = try await Self.session(on: SMPClientTestLink())
        await #expect(throws: SMPClientError.refused(.mcumgr(.notSupported))) {
            try await session.request(ImageStateReadRequest())
        }
    }

    @Test func requestTimesOutWhenTheDeviceIsSilent() async throws {
        let link = SMPClientTestLink()
        link.setSilent(true)
        let clock = LinkClock.manual()
        let session = try await Self.session(on: link, clock: clock, configuration: .init(requestTimeout: .milliseconds(50)))
        let request = Task { try await session.request(OSEchoRequest(text: "hello?")) }
        await link.waitForRequests(1)
        clock.advance(by: .milliseconds(50))
        await #expect(throws: SMPClientError.timeout(SMPRequestMessageSummary(op: .write, group: .os, command: 0), after: .milliseconds(50))) {
            try await request.value
        }
    }

    /// Ctrl-C must not wait out the deadline of a device that does not answer: the clock never
    /// moves here, so only the cancellation can end the wait. The session serves the next request.
    @Test func cancellingTheCallerEndsItsRequestAtOnce() async throws {
        let link = SMPClientTestLink()
        link.setSilent(true)
        let session = try await Self.session(on: link, clock: .manual(), configuration: .init(requestTimeout: .seconds(10)))
        let request = Task { try await session.request(OSEchoRequest(text: "hello?")) }
        await link.waitForRequests(1)
        request.cancel()
        await #expect(throws: SMPClientError.cancelled) { try await request.value }
        link.setSilent(false)
        #expect(try await session.request(OSEchoRequest(text: "still there")).text == "still there")
    }

    @Test func uploadStreamsTheDevicesProgressAndCompletes() async throws {
        let link = SMPClientTestLink(maxWrite: 244)
        let session = try await Self.session(on: link)
        await session.setDeviceLimits(bufferSize: 2475, reassembles: true)
        let image = uploadTestImage(40_000)
        var last: AcknowledgedProgress?
        for try await progress in await session.upload(ImageUploadJob(image: image, sha256: try SHA256.hash(image)),
                                                       configuration: ImageUploadConfiguration(window: 3)) {
            last = progress
        }
        #expect(last == AcknowledgedProgress(acknowledged: 40_000, total: 40_000))
        #expect(link.device.completedImage == image)
        #expect(link.device.received.count < 30, "packets of up to 2475 bytes, not one write each")
        // The client is back for single requests, sequence numbers running on.
        #expect(try await session.request(OSEchoRequest(text: "after")).text == "after")
    }

    @Test func uploadResumesOnTheNextLinkAfterALoss() async throws {
        let image = uploadTestImage(60_000)
        let first = SMPClientTestLink(generation: 1, dropAfterRequests: 12)
        let session = try await Self.session(on: first)
        await session.setDeviceLimits(bufferSize: 2475, reassembles: true)
        let reconnect = Task {
            for await _ in first.downSignal {}
            let second = SMPClientTestLink(generation: 2, maxWrite: 495, device: first.device)
            try await session.attach(second)
            return second
        }
        var last: AcknowledgedProgress?
        for try await progress in await session.upload(ImageUploadJob(image: image, sha256: try SHA256.hash(image)),
                                                       configuration: ImageUploadConfiguration(window: 2)) {
            last = progress
        }
        let second = try await reconnect.value
        #expect(last?.acknowledged == 60_000)
        #expect(second.device.completedImage == image)
        // The second link's device is the first one's, history included: look after that history.
        let onSecond = second.device.received.dropFirst(first.device.received.count).map(\.request)
        let probe = try #require(onSecond.first)
        #expect(probe.offset == 0 && probe.data.count == 32, "the new link starts with the resume probe")
        #expect(onSecond.dropFirst().first?.offset ?? 0 > 32, "and continues where the device was")
    }

    @Test func eventsFromAnotherGenerationAreDropped() async throws {
        let link = SMPClientTestLink(generation: 5)
        let session = try await Self.session(on: link)
        // Garbage that would end the client if it were fed to it.
        link.inject(LinkEvent(generation: LinkGeneration(4), kind: .notification(SMPGATT.characteristic, [0xFF, 0xFF])))
        link.inject(LinkEvent(generation: LinkGeneration(4), kind: .disconnected(.connectionTimeout)))
        #expect(try await session.request(OSEchoRequest(text: "still here")).text == "still here")
    }

    @Test func notificationsOfOtherCharacteristicsAreIgnored() async throws {
        let link = SMPClientTestLink()
        let session = try await Self.session(on: link)
        link.inject(LinkEvent(generation: link.parameters.generation, kind: .notification(CharacteristicID(short: 0x2A19), [0xFF])))
        #expect(try await session.request(OSEchoRequest(text: "ok")).text == "ok")
    }

    @Test func requestDuringAnUploadIsRefusedAsBusy() async throws {
        let link = SMPClientTestLink()
        link.setSilent(true)
        let session = try await Self.session(on: link)
        let image = uploadTestImage(5_000)
        let stream = await session.upload(ImageUploadJob(image: image, sha256: try SHA256.hash(image)), configuration: .init())
        await #expect(throws: SMPClientError.busy) { try await session.request(OSEchoRequest(text: "x")) }
        await session.close()
        await #expect(throws: SMPClientError.closed) {
            for try await _ in stream {}
        }
    }

    @Test func linkLossEndsAWaitingRequest() async throws {
        let link = SMPClientTestLink(dropAfterRequests: 1)
        let session = try await Self.session(on: link)
        await #expect(throws: SMPClientError.linkLost) { try await session.request(OSEchoRequest(text: "x")) }
        await #expect(throws: SMPClientError.linkLost) { try await session.request(OSEchoRequest(text: "y")) }
    }

    /// SMP requests are Write Commands: the device never refuses one, so a write the host fails
    /// (bluetoothd answers a write on a link going down with ATT 0x0E before it reports the loss)
    /// is the link's failure. The session closes the link, and the request ends as a link loss,
    /// which the stages above reconnect from, never as the device's refusal.
    @Test func aWriteTheHostFailsEndsTheRequestAsALinkLossNotARefusal() async throws {
        let link = SMPClientTestLink()
        let session = try await Self.session(on: link)
        link.failWrites(with: .rejected(SMPGATT.characteristic, .unlikelyError))
        await #expect(throws: SMPClientError.linkLost) { try await session.request(OSEchoRequest(text: "x")) }
        var downs = link.downSignal.makeAsyncIterator()
        _ = await downs.next() // the session took the link down itself
        await #expect(throws: SMPClientError.linkLost) { try await session.request(OSEchoRequest(text: "y")) }
    }

    @Test func closeEndsWaitingRequests() async throws {
        let link = SMPClientTestLink()
        link.setSilent(true)
        let session = try await Self.session(on: link)
        let waiting = Task { try await session.request(OSEchoRequest(text: "x")) }
        await link.waitForRequests(1)
        await session.close()
        await #expect(throws: SMPClientError.closed) { try await waiting.value }
    }
}
