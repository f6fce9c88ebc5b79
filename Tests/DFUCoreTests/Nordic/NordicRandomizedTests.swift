import Testing
@testable import DFUCore

/// Many seeded runs against the fake bootloader with silent packet drops, corrupted packets and
/// lost links at random, on both SDK link-drop behaviours and several packet sizes, PRN values and
/// object sizes. Every run ends within a bounded number of steps, either with the device holding
/// exactly the image or with a typed reason.
@Suite struct NordicRandomizedTests {
    static let maxSteps = 150_000

    struct Setup: CustomStringConvertible {
        var seed: UInt64
        var imageCount: Int
        var datCount: Int
        var packetSize: Int
        var prn: UInt16
        var dataMaxSize: Int
        var sdk: NordicFakeBootloader.SDK
        var dropPerMille: Int
        var linkDrops: Int

        init(seed: UInt64) {
            var rng = SplitMix64(seed: seed)
            self.seed = seed
            imageCount = 4 * (1 + rng.next(below: 10_000))
            datCount = 1 + rng.next(below: 400)
            packetSize = [20, 64, 180, 244, 512][rng.next(below: 5)]
            prn = [0, 0, 1, 3, 12][rng.next(below: 5)]
            dataMaxSize = [512, 1024, 4096][rng.next(below: 3)]
            sdk = rng.next(below: 2) == 0 ? .sdk15 : .sdk17
            dropPerMille = [0, 0, 1, 2, 5][rng.next(below: 5)]
            linkDrops = rng.next(below: 4)
        }

        var description: String {
            "seed \(seed): \(imageCount) B image, \(datCount) B init, packets \(packetSize), PRN \(prn), objects \(dataMaxSize), \(sdk), drops \(dropPerMille)‰, links \(linkDrops)"
        }

        func pair() -> NordicTestPair {
            var pair = NordicTestPair(initPacket: nordicTestBytes(datCount, seed: seed ^ 0xDA7), image: nordicTestBytes(imageCount, seed: seed),
                                      packetSize: packetSize, prn: prn, sdk: sdk, commandMaxSize: 512, dataMaxSize: dataMaxSize)
            pair.device.dropPerMille = dropPerMille
            pair.device.rng = SplitMix64(seed: seed ^ 0xD20B)
            pair.device.prnCountsDroppedPackets = seed % 3 == 0
            pair.rng = SplitMix64(seed: seed ^ 0x11CC)
            pair.linkDropPerMille = 15
            pair.maxRandomLinkDrops = linkDrops
            pair.acceptBeforePRN = seed % 2 == 0
            if seed % 7 == 0 { pair.device.corruptedPackets = [Int(seed % 50)] }
            return pair
        }
    }

    @Test(arguments: 1...8)
    func faultyRunsEndWithTheImageOrATypedReason(batch: Int) {
        let runs = 25
        var completed = 0
        var recoveries = 0
        for run in 0..<runs {
            let setup = Setup(seed: UInt64(batch * 1_000 + run))
            var pair = setup.pair()
            let outcome = pair.run(maxSteps: Self.maxSteps)
            let stats = pair.core.statistics
            recoveries += stats.lossesDetected + stats.crcMismatches + stats.linkLosses
            #expect(pair.failedActions <= 1, "\(setup)")
            switch outcome {
            case .completed(.validated):
                completed += 1
                #expect(pair.deviceHoldsImage, "\(setup)")
            case .completed(.unconfirmed):
                // The link dropped with the final Execute outstanding; if the device got it, it validated.
                completed += 1
                if pair.device.completedImage != nil { #expect(pair.deviceHoldsImage, "\(setup)") }
            case .failed(.retriesExhausted):
                #expect(pair.device.completedImage == nil, "\(setup)")
            default:
                Issue.record("\(setup): \(outcome)")
            }
        }
        #expect(completed >= runs * 9 / 10, "batch \(batch): only \(completed) of \(runs) completed")
        #expect(recoveries >= runs / 2, "batch \(batch): the faults were exercised (\(recoveries) recoveries)")
    }

    @Test(arguments: 1...4)
    func cleanRunsSendEveryByteOnce(batch: Int) {
        for run in 0..<25 {
            var setup = Setup(seed: UInt64(batch * 100 + run))
            setup.dropPerMille = 0
            setup.linkDrops = 0
            var pair = setup.pair()
            pair.device.corruptedPackets = []
            #expect(pair.run(maxSteps: Self.maxSteps) == .completed(.validated), "\(setup)")
            #expect(pair.deviceHoldsImage, "\(setup)")
            #expect(pair.core.statistics.bytesSent == setup.imageCount + setup.datCount, "\(setup)")
            #expect(pair.core.statistics.objectsRecreated == 0, "\(setup)")
            #expect(pair.maxPacket <= setup.packetSize, "\(setup)")
        }
    }
}
