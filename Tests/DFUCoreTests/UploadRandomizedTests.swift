import Testing
@testable import DFUCore

/// Many seeded runs with every kind of fault mixed: lost requests, lost, duplicated and late
/// replies, lost sessions and lost links, on several link shapes and windows. Every run ends (no
/// hang), never exceeds the window, and a completed run leaves exactly the image on the device.
@Suite struct UploadRandomizedTests {
    static let budgets = [
        SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475, deviceReassembles: true),
        SMPPacketBudget(maxWriteSize: 244, deviceBufferSize: 2475, deviceReassembles: true),
        SMPPacketBudget(maxWriteSize: 244),
        SMPPacketBudget(maxWriteSize: 182, deviceBufferSize: 384, deviceReassembles: true),
    ]

    @Test(arguments: 1...12)
    func faultyRunsEndCleanly(batch: Int) throws {
        var completed = 0
        var recoveries = 0
        let runs = 25
        for run in 0..<runs {
            let seed = UInt64(batch * 1_000 + run)
            var rng = SplitMix64(seed: seed)
            let image = uploadTestImage(Int.random(in: 200...60_000, using: &rng), seed: seed)
            let window = Int.random(in: 1...5, using: &rng)
            let budget = Self.budgets[Int.random(in: 0..<Self.budgets.count, using: &rng)]
            var pair = try UploadTestPair(image: image, window: window, budget: budget)
            var faults = SplitMix64(seed: seed ^ 0xFA17)
            pair.fault = { _, _ in
                switch Int.random(in: 0..<1_000, using: &faults) {
                case 0..<25: return .lose
                case 25..<50: return .dropReply
                case 50..<75: return .duplicateReply
                case 75..<100: return .delayReply(.milliseconds(Int64.random(in: 1...100, using: &faults)))
                case 100..<110: return .stallDevice(.milliseconds(Int64.random(in: 100...7_000, using: &faults)))
                case 110..<114: return .loseSessionFirst
                default: return .none
                }
            }
            pair.linkDrops = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                .init(atRequest: Int.random(in: 1...60, using: &rng), restoreAfter: .seconds(Int64.random(in: 1...10, using: &rng)),
                      rebootsDevice: Bool.random(using: &rng))
            }.sorted { $0.atRequest < $1.atRequest }

            let outcome = pair.run()
            let stats = pair.core.statistics
            recoveries += stats.rewinds + stats.timeouts + stats.sessionRestarts + stats.linkLosses
            let context = "seed \(seed), \(image.count) bytes, window \(window), \(budget)"
            #expect(pair.maxCoreInFlight <= window, "\(context)")
            #expect(pair.failedActions <= 1, "\(context)")
            #expect(pair.device.framingErrors.isEmpty, "\(context): \(pair.device.framingErrors)")
            switch outcome {
            case .completed:
                completed += 1
                #expect(pair.device.completedImage == image, "\(context)")
            case .failed(.timeout), .failed(.retriesExhausted):
                break // enough faults at one offset: allowed, but must be rare // enough faults at one offset: allowed, but must be rare
            default:
                Issue.record("\(context): \(outcome)")
            }
        }
        #expect(completed >= runs * 9 / 10, "batch \(batch): only \(completed) of \(runs) completed")
        #expect(recoveries >= runs, "batch \(batch): the faults were exercised (\(recoveries) recoveries)")
    }

    @Test(arguments: 1...4)
    func cleanRunsSendEveryByteExactlyOnce(batch: Int) throws {
        for run in 0..<25 {
            let seed = UInt64(batch * 100 + run)
            var rng = SplitMix64(seed: seed)
            let image = uploadTestImage(Int.random(in: 32...80_000, using: &rng), seed: seed)
            let window = Int.random(in: 1...6, using: &rng)
            let budget = Self.budgets[Int.random(in: 0..<Self.budgets.count, using: &rng)]
            var pair = try UploadTestPair(image: image, window: window, budget: budget)
            #expect(pair.run() == .completed(match: nil), "seed \(seed)")
            #expect(pair.core.statistics.dataBytesSent == UInt64(image.count), "seed \(seed)")
            #expect(pair.maxDeviceQueue <= window, "seed \(seed)")
            #expect(pair.device.completedImage == image, "seed \(seed)")
        }
    }
}
