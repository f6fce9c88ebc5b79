import Testing
@testable import DFUCore
import Transport

/// Lost requests, lost or late replies, lost sessions and lost links: the device's offset wins,
/// nothing is sent twice beyond what was in flight, and the upload still completes.
@Suite struct UploadRecoveryTests {
    /// Bytes of one full chunk with the default budget (2475-byte packets) below offset 65 536.
    let chunk = UInt64(uploadChunkData(offset: 300, packetSize: 2475))

    @Test(arguments: [1, 3, 4])
    func rewindsToDeviceOffsetWhenReplyIsLower(window: Int) throws {
        let image = uploadTestImage(60_000)
        var pair = try UploadTestPair(image: image, window: window)
        // Request 4 never reaches the handler; with a window the device answers the requests behind
        // it with the offset it still expects.
        pair.fault = { index, _ in index == 4 ? .lose : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        let extra = pair.core.statistics.dataBytesSent - UInt64(image.count)
        #expect(extra <= UInt64(window) * chunk, "only what was in flight is sent again")
        if window > 1 {
            #expect(pair.core.statistics.rewinds == 1, "stale replies do not rewind again")
            #expect(pair.core.statistics.timeouts == 0, "the lower offset, not a deadline, started the resend")
        }
        #expect(pair.maxCoreInFlight <= window)
    }

    @Test func staleRepliesNeitherRewindAgainNorCountTwice() throws {
        let image = uploadTestImage(80_000)
        var pair = try UploadTestPair(image: image, window: 5)
        pair.fault = { index, _ in index == 3 || index == 12 ? .lose : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.core.statistics.rewinds == 2)
        #expect(pair.core.statistics.dataBytesSent <= UInt64(image.count) + 2 * 5 * chunk)
        // The device's count only goes up while no session is lost.
        #expect(zip(pair.progress, pair.progress.dropFirst()).allSatisfy { $0.acknowledged <= $1.acknowledged })
    }

    @Test func resendsFromDeviceOffsetWhenChunkDeadlinePasses() throws {
        let image = uploadTestImage(30_000)
        var pair = try UploadTestPair(image: image, window: 1)
        pair.fault = { index, _ in index == 5 ? .lose : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.core.statistics.timeouts == 1)
        #expect(pair.core.statistics.dataBytesSent == UInt64(image.count) + chunk)
        #expect(pair.now >= .zero + .seconds(5), "the resend waited for the 5 s deadline")
        #expect(pair.device.completedImage == image)
    }

    @Test func chunkWhoseReplyWasLostButWhichTheDeviceAcknowledgedIsNotResent() throws {
        let image = uploadTestImage(200_000)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.chunkTime = .milliseconds(100) // long enough that the deadline passes mid-upload
        pair.fault = { index, _ in index == 3 ? .dropReply : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.core.statistics.timeouts == 1)
        #expect(pair.core.statistics.dataBytesSent == UInt64(image.count))
    }

    @Test func ignoresLateReplyArrivingAfterItsDeadline() throws {
        let image = uploadTestImage(30_000)
        var pair = try UploadTestPair(image: image, window: 2)
        pair.fault = { index, _ in index == 4 ? .delayReply(.seconds(6)) : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.core.client.failure == nil)
    }

    @Test func ignoresDuplicatedReplies() throws {
        let image = uploadTestImage(40_000)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.fault = { _, _ in .duplicateReply }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.core.statistics.dataBytesSent == UInt64(image.count))
        #expect(pair.core.statistics.rewinds == 0)
    }

    @Test func survivesRepliesDeliveredOutOfOrder() throws {
        let image = uploadTestImage(40_000)
        var pair = try UploadTestPair(image: image, window: 4)
        // Every third reply arrives after the two behind it.
        pair.fault = { index, _ in index > 1 && index % 3 == 0 ? .delayReply(.milliseconds(8)) : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.core.statistics.dataBytesSent == UInt64(image.count))
    }

    @Test func restartsWithFullFirstPacketWhenDeviceReportsZeroMidUpload() throws {
        let image = uploadTestImage(60_000)
        let sha = try SHA256.hash(image)
        var pair = try UploadTestPair(image: image, window: 3, imageNumber: 0, upgradeOnly: true)
        pair.fault = { index, _ in index == 7 ? .loseSessionFirst : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.core.statistics.sessionRestarts == 1)
        #expect(pair.device.completedImage == image)
        let firsts = pair.deviceRequests.filter { $0.offset == 0 }
        #expect(firsts.count == 2)
        for first in firsts {
            #expect(first.length == 60_000 && first.sha == sha && first.image == 0 && first.upgrade == true)
        }
        #expect(firsts[1].data.count == firsts[0].data.count, "the device starts over, so the restart is a full chunk")
        #expect(pair.progress.contains(AcknowledgedProgress(acknowledged: 0, total: 60_000)))
    }

    /// A new upload of an image the device already holds part of (an earlier run's session with the
    /// same sha): its first answer is beyond what the first packet carried, and progress says where
    /// it started, so a report counts only what this upload sent. A link loss later changes nothing.
    @Test func anUploadTheDeviceResumesSaysWhereItStarted() throws {
        let image = uploadTestImage(60_000)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.device.session = .init(length: 60_000, sha: try SHA256.hash(image), offset: 30_000)
        pair.device.slot = Array(image.prefix(30_000))
        pair.linkDrops = [.init(atRequest: 6)]
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.progress.dropFirst().allSatisfy { $0.startOffset == 30_000 }, "\(pair.progress)")

        var fresh = try UploadTestPair(image: image, window: 3)
        fresh.linkDrops = [.init(atRequest: 6)]
        #expect(fresh.run() == .completed(match: nil))
        #expect(fresh.progress.allSatisfy { $0.startOffset == 0 }, "every byte sent by this upload")
    }

    @Test func uploadResumesFromDeviceOffsetAfterLinkLoss() throws {
        let image = uploadTestImage(100_000)
        let sha = try SHA256.hash(image)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.linkDrops = [.init(atRequest: 15)]
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.core.statistics.linkLosses == 1)
        #expect(pair.device.completedImage == image)
        let firsts = pair.deviceRequests.filter { $0.offset == 0 }
        let probe = try #require(firsts.last)
        #expect(firsts.count == 2 && probe.data.count == ImageUploadJob.minimumFirstChunk)
        #expect(probe.sha == sha && probe.length == 100_000, "same session id, so the device resumes")
        let extra = pair.core.statistics.dataBytesSent - UInt64(image.count)
        #expect(extra <= 3 * chunk + UInt64(ImageUploadJob.minimumFirstChunk), "no byte sent twice beyond the window")
        #expect(pair.core.statistics.sessionRestarts == 0)
    }

    @Test(arguments: [2, 6, 20, 38])
    func uploadCompletesWithLinkLossAtSeveralPoints(atRequest: Int) throws {
        let image = uploadTestImage(90_000)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.linkDrops = [.init(atRequest: atRequest), .init(atRequest: atRequest + 9)]
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        let extra = pair.core.statistics.dataBytesSent - UInt64(image.count)
        #expect(extra <= 2 * (3 * chunk + 32))
    }

    @Test func resumeAfterDeviceRebootContinuesFromTheOffsetTheDeviceReports() throws {
        let image = uploadTestImage(50_000)
        var pair = try UploadTestPair(image: image, window: 2)
        pair.linkDrops = [.init(atRequest: 9, rebootsDevice: true)]
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        // The probe started a new session and the device kept its 32 bytes: continue from there.
        let afterProbe = try #require(pair.deviceRequests.drop { $0.data.count != 32 }.dropFirst().first)
        #expect(afterProbe.offset == 32)
    }

    @Test func resumedUploadCutsChunksForTheNewLinksWriteSize() throws {
        let image = uploadTestImage(40_000)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.linkDrops = [.init(atRequest: 5, newMaxWrite: 244)]
        #expect(pair.run() == .completed(match: nil))
        let probeIndex = try #require(pair.writes.lastIndex { $0.count > 244 })
        #expect(pair.writes[(probeIndex + 1)...].allSatisfy { $0.count <= 244 })
        #expect(pair.device.completedImage == image)
    }

    @Test func parkedUploadFailsWhenTheLinkIsNotRestoredInTime() throws {
        let image = uploadTestImage(10_000)
        var core = ImageUploadCore(job: ImageUploadJob(image: image, sha256: try SHA256.hash(image)),
                                   configuration: ImageUploadConfiguration(window: 2, linkRestoreTimeout: .seconds(30)),
                                   client: SMPClientCore(budget: SMPPacketBudget(maxWriteSize: 495)))
        _ = core.handle(.start, now: .zero)
        let parked = core.handle(.linkLost, now: .zero + .seconds(1))
        #expect(parked == [.timer(at: .zero + .seconds(31))])
        #expect(core.handle(.timerFired, now: .zero + .seconds(20)).isEmpty, "an early wake-up does nothing")
        #expect(core.handle(.linkLost, now: .zero + .seconds(21)).isEmpty)
        let end = core.handle(.timerFired, now: .zero + .seconds(31))
        #expect(end == [.failed(.linkNotRestored(after: .seconds(30))), .timer(at: nil)])
    }

    @Test func failsWithTimeoutAfterFiveFailuresAtOneOffset() throws {
        let image = uploadTestImage(30_000)
        var pair = try UploadTestPair(image: image, window: 3)
        pair.fault = { index, _ in index >= 3 ? .lose : .none }
        let outcome = pair.run()
        let acknowledged = try #require(pair.progress.last).acknowledged
        #expect(outcome == .failed(.timeout(offset: acknowledged, attempts: 5)))
        #expect(pair.failedActions == 1)
        #expect(pair.now < .zero + .seconds(60), "five deadlines of 5 s, not a hang")
    }

    @Test func firstPacketIsRetriedAfterItsLongDeadlineAndThenGivesUp() throws {
        var pair = try UploadTestPair(image: uploadTestImage(10_000), window: 3)
        pair.fault = { _, _ in .lose }
        #expect(pair.run() == .failed(.timeout(offset: 0, attempts: 5)))
        #expect(pair.core.statistics.requestsSent == 5)
        #expect(pair.now == .zero + .seconds(200), "five first-packet deadlines of 40 s")
    }

    @Test func deviceThatKeepsAskingForTheSameOffsetEndsTheUpload() throws {
        let image = uploadTestImage(30_000)
        var pair = try UploadTestPair(image: image, window: 2)
        // A device stuck on a flash error that keeps asking for the same offset (zephyr#44219).
        pair.fault = { index, request in
            guard index > 1, let request, request.offset > 0 else { return .none }
            return .answerBody(["off": 2_000])
        }
        #expect(pair.run() == .failed(.retriesExhausted(offset: 2_000, attempts: 5)))
    }
}
