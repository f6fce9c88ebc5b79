import Testing
@testable import DFUCore
import Transport

/// Chunks fill whole writes: the packet is the budget or the largest multiple of the write size
/// under it, whichever carries more image bytes per write.
@Suite struct UploadChunkSizerTests {
    func packetSize(offset: UInt64, budget: SMPPacketBudget) throws -> Int {
        let count = try #require(UploadChunkSizer.dataCount(for: ImageUploadRequest(offset: offset, data: []),
                                                            budget: budget, remaining: .max))
        let request = ImageUploadRequest(offset: offset, data: [UInt8](repeating: 0, count: count))
        return try request.packet(sequence: 0).encoded().count
    }

    @Test func nordicsRecommendedBufferIsFiveFullWrites() throws {
        let budget = SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475, deviceReassembles: true)
        for offset: UInt64 in [1, 300, 70_000, 600_000] {
            #expect(try packetSize(offset: offset, budget: budget) == 2475)
        }
    }

    @Test func dropsAPartFilledLastWriteWhenThatCarriesMorePerWrite() throws {
        // 2475 in writes of 244: ten full writes (2440) beat eleven whose last carries 35 bytes.
        let budget = SMPPacketBudget(maxWriteSize: 244, deviceBufferSize: 2475, deviceReassembles: true)
        #expect(try packetSize(offset: 70_000, budget: budget) == 2440)
    }

    @Test func keepsThePartFilledWriteWhenTheWholeBudgetCarriesMorePerWrite() throws {
        // 470 in writes of 244: two writes carrying ~435 bytes beat one carrying ~209.
        let budget = SMPPacketBudget(maxWriteSize: 244, deviceBufferSize: 470, deviceReassembles: true)
        #expect(try packetSize(offset: 70_000, budget: budget) == 470)
    }

    @Test func withoutReassemblyAPacketIsOneWrite() throws {
        let budget = SMPPacketBudget(maxWriteSize: 244, deviceBufferSize: 2475, deviceReassembles: false)
        #expect(budget.maxPacketSize == 244 && !budget.splitsPackets)
        #expect(try packetSize(offset: 70_000, budget: budget) == 244)
        // A device buffer smaller than a write bounds the packet too.
        #expect(SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 384).maxPacketSize == 384)
    }

    @Test func lastChunkTakesWhatRemains() throws {
        let budget = SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475, deviceReassembles: true)
        #expect(UploadChunkSizer.dataCount(for: ImageUploadRequest(offset: 5, data: []), budget: budget, remaining: 17) == 17)
    }

    @Test func nothingFitsInATinyBudget() {
        let budget = SMPPacketBudget(maxWriteSize: 14)
        #expect(UploadChunkSizer.dataCount(for: ImageUploadRequest(offset: 70_000, data: []), budget: budget, remaining: 100) == nil)
    }

    @Test func everyPacketOfAnUploadFillsWholeWritesExceptTheLast() throws {
        let image = uploadTestImage(100_000)
        var pair = try UploadTestPair(image: image, window: 3)
        #expect(pair.run() == .completed(match: nil))
        // All writes are full 495-byte writes except the end of the first and the last packet.
        let short = pair.writes.filter { $0.count < 495 }
        #expect(short.count <= 2)
    }
}

/// Bad input and misuse are refused before any byte is sent, with the reason.
@Suite struct UploadInputTests {
    func start(_ job: ImageUploadJob, _ configuration: ImageUploadConfiguration = .init(),
               budget: SMPPacketBudget = SMPPacketBudget(maxWriteSize: 495)) -> [ImageUploadCore.Action] {
        var core = ImageUploadCore(job: job, configuration: configuration, client: SMPClientCore(budget: budget))
        return core.handle(.start, now: .zero)
    }

    @Test func refusesAnImageShorterThanAHeader() {
        let actions = start(ImageUploadJob(image: [1, 2, 3], sha256: [UInt8](repeating: 0, count: 32)))
        guard case .failed(.invalidJob(let reason))? = actions.first else {
            Issue.record("expected invalidJob, got \(actions)")
            return
        }
        #expect(reason.contains("3 bytes") && actions.count == 1)
    }

    @Test(arguments: [0, 16, 31, 33, 64])
    func refusesASessionHashThatIsNotASHA256(count: Int) {
        let actions = start(ImageUploadJob(image: uploadTestImage(100), sha256: [UInt8](repeating: 7, count: count)))
        guard case .failed(.invalidJob)? = actions.first else {
            Issue.record("expected invalidJob, got \(actions)")
            return
        }
    }

    @Test func refusesAnEmptyWindowOrNonPositiveTimeouts() throws {
        let job = ImageUploadJob(image: uploadTestImage(100), sha256: try SHA256.hash(uploadTestImage(100)))
        for configuration in [ImageUploadConfiguration(window: 0), ImageUploadConfiguration(chunkTimeout: .zero),
                              ImageUploadConfiguration(maxFailuresPerOffset: 0)] {
            guard case .failed(.invalidJob)? = start(job, configuration).first else {
                Issue.record("\(configuration) accepted")
                continue
            }
        }
    }

    @Test func refusesALinkTooSmallForTheFirstPacket() throws {
        let image = uploadTestImage(1_000)
        // MTU 23 without reassembly: 20-byte packets cannot carry len, sha and a header's worth of data.
        let actions = start(ImageUploadJob(image: image, sha256: try SHA256.hash(image)), budget: SMPPacketBudget(maxWriteSize: 20))
        guard case .failed(.packetTooSmall(20, let needed))? = actions.first else {
            Issue.record("expected packetTooSmall, got \(actions)")
            return
        }
        #expect(needed > 90)
        #expect(!actions.contains { if case .write = $0 { return true } else { return false } })
    }

    @Test func eventWithoutATransitionIsALocalProtocolViolation() throws {
        let image = uploadTestImage(5_000)
        let job = ImageUploadJob(image: image, sha256: try SHA256.hash(image))
        let client = SMPClientCore(budget: SMPPacketBudget(maxWriteSize: 495))
        var early = ImageUploadCore(job: job, configuration: .init(), client: client)
        #expect(early.handle(.notification([0]), now: .zero) == [.failed(.localProtocolViolation(event: "notification", state: "ready"))])

        var streaming = ImageUploadCore(job: job, configuration: .init(), client: client)
        _ = streaming.handle(.start, now: .zero)
        let actions = streaming.handle(.linkRestored(maxWriteSize: 100), now: .zero)
        #expect(actions.first == .failed(.localProtocolViolation(event: "linkRestored", state: "sending the first packet")))
        #expect(actions.last == .timer(at: nil))
        #expect(streaming.handle(.start, now: .zero).isEmpty, "failed is final")
    }
}
