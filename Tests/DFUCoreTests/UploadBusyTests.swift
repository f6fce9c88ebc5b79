@testable import DFUCore
import Testing
import Transport

/// `MGMT_ERR_EBUSY` (rc 10) during an upload: the core waits, with a backoff that doubles up to
/// its cap, and asks again at the same offset; a device that stays busy ends the upload after a
/// bounded number of answers at one offset.
@Suite struct UploadBusyTests {
    let image = (0 ..< 40_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    @Test func backoffDoublesUpToItsCapAndEndsAtTheLimit() {
        var backoff = UploadBusyBackoff(base: .milliseconds(100), cap: .seconds(2), limit: 8)
        let waits = (0 ..< 7).map { _ in try? backoff.next(at: 500).get() }
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                          .milliseconds(1600), .seconds(2), .seconds(2)])
        #expect(backoff.next(at: 500) == .failure(.deviceBusy(offset: 500, attempts: 8)))
        #expect((try? backoff.next(at: 900).get()) == .milliseconds(100), "each offset has its own count")
    }

    @Test func busyMidUploadIsAskedAgainAtTheSameOffsetAndCompletes() throws {
        var pair = try UploadTestPair(image: image, window: 3)
        pair.fault = { index, _ in index == 6 ? .answerBusy : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.core.statistics.busyPauses == 1)
        // The device handled requests 1–5; the 6th was answered busy (not handled); the two sent
        // after it were discarded (wrong offset), then the 6th's offset came again.
        let requests = pair.deviceRequests
        let fifth = try #require(requests.dropFirst(4).first)
        let busyOffset = fifth.offset + UInt64(fifth.data.count)
        #expect(requests.dropFirst(5).prefix(2).allSatisfy { $0.offset > busyOffset }, "stale, sent before the answer")
        #expect(requests.dropFirst(7).first?.offset == busyOffset, "asked again at the same offset")
    }

    @Test func busyFirstPacketIsSentAgainWholeAfterTheBackoff() throws {
        var pair = try UploadTestPair(image: image, window: 3)
        pair.fault = { index, _ in index == 1 ? .answerBusy : .none }
        #expect(pair.run() == .completed(match: nil))
        // The busy first packet was not handled; the one the device took is a whole first packet.
        let first = try #require(pair.deviceRequests.first)
        #expect(first.offset == 0 && first.length == UInt64(image.count) && first.sha != nil)
        #expect(pair.core.statistics.busyPauses == 1)
        #expect(pair.deviceRequests.filter { $0.offset == 0 }.count == 1)
        #expect(pair.device.completedImage == image)
    }

    @Test func deviceThatStaysBusyEndsTheUploadAfterBoundedWaits() throws {
        var pair = try UploadTestPair(image: image, window: 3)
        pair.fault = { index, _ in index >= 4 ? .answerBusy : .none }
        guard case .failed(.deviceBusy(let offset, let attempts)) = pair.run() else {
            Issue.record("expected deviceBusy, got \(String(describing: pair.outcome))")
            return
        }
        #expect(attempts == ImageUploadConfiguration().maxBusyPerOffset)
        #expect(offset > 0)
        // 0.1 + 0.2 + 0.4 + 0.8 + 1.6 + 2 + 2 s of backoff, plus the first erase and the round trips.
        #expect(pair.now < MonotonicInstant.zero + .seconds(12))
        #expect(pair.core.statistics.busyPauses == attempts - 1)
    }

    @Test func busyAnswersToStaleRequestsAreNotCounted() throws {
        // Window 3: the busy answer to one chunk is followed by answers to the two sent after it;
        // those must not count as further busy answers at that offset.
        var pair = try UploadTestPair(image: image, window: 3)
        pair.fault = { index, _ in (6 ... 8).contains(index) ? .answerBusy : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.core.statistics.busyPauses == 1)
    }
}
