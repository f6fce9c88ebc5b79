@testable import DFUCore
import Testing
import Transport

/// The upload on a well-behaved device: what goes out, in what order, with which deadlines.
@Suite struct UploadCoreTests {
    @Test(arguments: [1, 2, 3, 5])
    func completesAndTheDeviceHoldsTheImage(window: Int) throws {
        let image = uploadTestImage(60_000)
        var pair = try UploadTestPair(image: image, window: window)
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.core.statistics.dataBytesSent == UInt64(image.count), "no byte sent twice")
        #expect(pair.core.statistics.rewinds == 0 && pair.core.statistics.timeouts == 0)
        #expect(pair.maxCoreInFlight == window, "the window is used and never exceeded")
        #expect(pair.maxDeviceQueue <= window, "the device never holds more than the window")
        #expect(pair.progress.last == AcknowledgedProgress(acknowledged: 60_000, total: 60_000))
        #expect(zip(pair.progress, pair.progress.dropFirst()).allSatisfy { $0.acknowledged < $1.acknowledged })
        #expect(pair.device.framingErrors.isEmpty)
    }

    @Test func completedUploadReportsTheDevicesMatch() throws {
        let image = uploadTestImage(9_000)
        var pair = try UploadTestPair(image: image)
        pair.device.checksImage = true
        #expect(pair.run() == .completed(match: true))
    }

    @Test func firstPacketCarriesEveryFirstPacketFieldAndOnlyItDoes() throws {
        let image = uploadTestImage(20_000)
        let sha = try SHA256.hash(image)
        var pair = try UploadTestPair(image: image, imageNumber: 1, upgradeOnly: true)
        #expect(pair.run() == .completed(match: nil))
        let requests = pair.deviceRequests
        let first = try #require(requests.first)
        #expect(first.offset == 0 && first.length == 20_000 && first.sha == sha)
        #expect(first.image == 1 && first.upgrade == true)
        #expect(first.data == Array(image.prefix(first.data.count)))
        for later in requests.dropFirst() {
            #expect(later.length == nil && later.sha == nil && later.image == nil && later.upgrade == nil)
            #expect(later.offset > 0)
        }
    }

    @Test func firstPacketIsSentAloneAndAwaited() throws {
        var pair = try UploadTestPair(image: uploadTestImage(30_000), window: 4)
        pair.start()
        #expect(pair.core.requestsInFlight == 1)
        let firstWrites = pair.writes.count
        // Nothing else goes out until the device has answered the first packet (after its erase).
        while pair.core.statistics.requestsSent == 1 {
            let stepped = pair.step()
            #expect(stepped)
        }
        #expect(pair.progress.last.map { $0.acknowledged > 0 } == true)
        #expect(pair.now >= .zero + pair.eraseTime)
        #expect(firstWrites == 5, "a full first packet of 2475 bytes in five writes of 495")
    }

    @Test func deadlinesAreLongForTheFirstPacketShortForChunksAndLongerForTheLast() throws {
        let image = uploadTestImage(8_000)
        var core = ImageUploadCore(job: ImageUploadJob(image: image, sha256: try SHA256.hash(image)),
                                   configuration: ImageUploadConfiguration(window: 1),
                                   client: SMPClientCore(budget: SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475, deviceReassembles: true)))
        var device = UploadTestDevice()
        var now = MonotonicInstant.zero
        var actions = core.handle(.start, now: now)
        #expect(actions.contains(.timer(at: now + .seconds(40))))
        var deadlines: [Duration] = []
        while !core.isFinished {
            let writes = actions.compactMap { if case .write(let w) = $0 { return w } else { return nil } }
            let frame = try #require(writes.compactMap { device.receive(write: $0) }.first)
            now = now + .milliseconds(100)
            actions = core.handle(.notification(try device.respond(to: frame).encoded()), now: now)
            if let deadline = core.nextDeadline { deadlines.append(now.duration(to: deadline)) }
        }
        // 8000 bytes: first packet, then two full chunks and the last one.
        #expect(deadlines == [.seconds(5), .seconds(5), .seconds(20)])
    }

    @Test func writesNeverExceedTheLinkAndPacketsNeverShareAWrite() throws {
        let image = uploadTestImage(40_000)
        var pair = try UploadTestPair(image: image, window: 3,
                                      budget: SMPPacketBudget(maxWriteSize: 244, deviceBufferSize: 2475, deviceReassembles: true))
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.writes.allSatisfy { $0.count <= 244 })
        // Re-framing the writes in order must give whole packets with no bytes left over.
        var assembler = SMPFrameAssembler()
        var frames = 0
        for write in pair.writes where try assembler.append(write) != nil { frames += 1 }
        #expect(frames == pair.core.statistics.requestsSent)
        #expect(assembler.isIdle)
    }

    @Test func withoutReassemblyEveryPacketIsOneWrite() throws {
        let image = uploadTestImage(10_000)
        var pair = try UploadTestPair(image: image, window: 2, budget: SMPPacketBudget(maxWriteSize: 244))
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.writes.count == pair.core.statistics.requestsSent)
        #expect(pair.writes.allSatisfy { $0.count <= 244 })
        #expect(pair.device.completedImage == image)
    }

    @Test func windowFollowsNordicsRule() {
        #expect(ImageUploadConfiguration.window(bufferCount: 4) == 3)
        #expect(ImageUploadConfiguration.window(bufferCount: 2) == 1)
        #expect(ImageUploadConfiguration.window(bufferCount: 1) == 1)
        #expect(ImageUploadConfiguration.window(bufferCount: 0) == 1)
        #expect(ImageUploadConfiguration.window(bufferCount: .max) == Int.max)
    }

    @Test func fallsBackToV1WhenTheDeviceOnlySpeaksV1() throws {
        let image = uploadTestImage(12_000)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.device.versions = 0...0
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.device.received.allSatisfy { $0.version == .v1 })
        #expect(pair.core.client.version == .v1)
    }

    @Test func progressStartsAtZeroAndEndsAtTheLength() throws {
        var pair = try UploadTestPair(image: uploadTestImage(5_000))
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.progress.first == AcknowledgedProgress(acknowledged: 0, total: 5_000))
        #expect(pair.progress.last?.fraction == 1)
    }

    @Test func eventsAfterTheEndProduceNothing() throws {
        var pair = try UploadTestPair(image: uploadTestImage(5_000))
        #expect(pair.run() == .completed(match: nil))
        for event: ImageUploadCore.Event in [.start, .timerFired, .linkLost, .linkRestored(maxWriteSize: 100), .notification([1, 2, 3])] {
            #expect(pair.core.handle(event, now: pair.now + .seconds(100)).isEmpty)
        }
    }
}
