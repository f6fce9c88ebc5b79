import Testing
@testable import DFUCore
import Transport

/// A device that falls silent mid-upload on a link that cannot report its loss (UDP, a UART): the
/// upload re-synchronises (an echo, then the resume packet, off 0 with the same sha) within
/// `resyncAfterSilence` instead of resending one chunk until its failure budget ends the run.
@Suite struct UploadResyncTests {
    /// What the device does with a request, decided as it arrives (shared with the fault closure).
    final class Outage: @unchecked Sendable {
        var silent = false
    }

    static func pair(_ image: [UInt8], resync: Duration? = .seconds(20)) throws -> UploadTestPair {
        var configuration = ImageUploadConfiguration(window: 3)
        configuration.resyncAfterSilence = resync
        return try UploadTestPair(image: image, configuration: configuration)
    }

    /// Silent from request 6 on, except for the upload's resume packet, which ends the silence.
    @Test func aDeviceThatAnswersOnlyTheResumePacketIsResumed() throws {
        let image = uploadTestImage(120_000)
        var pair = try Self.pair(image)
        let outage = Outage()
        pair.fault = { index, request in
            if index == 6 { outage.silent = true }
            guard outage.silent else { return .none }
            if let request, request.offset == 0 {
                outage.silent = false
                return .none
            }
            return .lose
        }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.core.statistics.resyncs == 1)
        let probes = pair.deviceRequests.dropFirst().filter { $0.offset == 0 }
        #expect(probes.count == 1 && probes.first?.data.count == ImageUploadJob.minimumFirstChunk,
                "one resume packet, a header's worth")
    }

    /// An outage that heals by itself after some requests: the echo rounds find the device again.
    @Test func anOutageThatHealsIsRidden() throws {
        let image = uploadTestImage(120_000)
        var pair = try Self.pair(image)
        pair.fault = { index, _ in (6...12).contains(index) ? .lose : .none }
        #expect(pair.run() == .completed(match: nil))
        #expect(pair.device.completedImage == image)
        #expect(pair.core.statistics.resyncs == 1)
    }

    /// A device that never answers again: the run ends once the resync's time is up, with the
    /// offset the device had reached, not after five resends of one chunk.
    @Test func aDeviceThatStaysSilentEndsTheUploadAtTheResyncsEnd() throws {
        let image = uploadTestImage(120_000)
        var pair = try Self.pair(image, resync: .seconds(20))
        pair.fault = { index, _ in index >= 6 ? .lose : .none }
        let outcome = pair.run()
        guard case .failed(.deviceSilent(let offset, let after)) = outcome else {
            Issue.record("expected deviceSilent, got \(outcome)")
            return
        }
        #expect(after == .seconds(20))
        #expect(offset == pair.core.progress.acknowledged && offset > 0)
        // Two 5 s chunk deadlines, then 20 s of rounds (each at most a chunk deadline long).
        #expect(pair.now >= .zero + .seconds(30) && pair.now <= .zero + .seconds(40), "\(pair.now)")
    }

    /// Where the link reports its loss (BLE) nothing changes: the failure budget decides.
    @Test func withoutResyncTheFailureBudgetDecides() throws {
        let image = uploadTestImage(60_000)
        var pair = try Self.pair(image, resync: nil)
        pair.fault = { index, _ in index >= 6 ? .lose : .none }
        guard case .failed(.timeout) = pair.run() else {
            Issue.record("expected the timeout after five attempts")
            return
        }
        #expect(pair.core.statistics.resyncs == 0)
    }
}
