import Testing
@testable import DFUCore
import Transport

/// A job that carries its slot hash reads the image list on a restored link before resuming: slot 1
/// holding the image ends the upload (the device wrote the last chunk, its reply was lost); any
/// other answer resumes with the 32-byte probe as before.
@Suite struct UploadLinkRestoreTests {
    let image = uploadTestImage(8_000)
    let slotHash = [UInt8](repeating: 0xAB, count: 32)

    @Test func restoredLinkWithTheImageInSlotOneCompletesWithoutAProbe() throws {
        var core = try parkedCore()
        let frame = try stateRead(core.handle(.linkRestored(maxWriteSize: 495), now: .zero + .seconds(1)))
        let list = ImageStateResponse(images: [ImageSlotState(slot: 0, version: "1.0.0", hash: [UInt8](repeating: 1, count: 32)),
                                               ImageSlotState(slot: 1, version: "1.1.0", hash: slotHash)])
        let actions = core.handle(.notification(try SMPPacket.response(to: frame.header, body: list.body).encoded()),
                                  now: .zero + .seconds(2))
        #expect(actions.contains(.progress(AcknowledgedProgress(acknowledged: 8_000, total: 8_000))))
        #expect(actions.contains(.completed(match: nil)))
        #expect(!actions.contains { if case .write = $0 { true } else { false } }, "no probe, no new session")
        #expect(core.isFinished && core.nextDeadline == nil)
    }

    @Test func restoredLinkWithAnotherImageInSlotOneResumesWithTheProbe() throws {
        var core = try parkedCore()
        let frame = try stateRead(core.handle(.linkRestored(maxWriteSize: 495), now: .zero + .seconds(1)))
        let list = ImageStateResponse(images: [ImageSlotState(slot: 1, version: "1.0.9", hash: [UInt8](repeating: 2, count: 32))])
        let actions = core.handle(.notification(try SMPPacket.response(to: frame.header, body: list.body).encoded()),
                                  now: .zero + .seconds(2))
        let probe = try #require(uploadRequests(actions).first)
        #expect(probe.offset == 0 && probe.data.count == ImageUploadJob.minimumFirstChunk && probe.sha != nil)
        #expect(!core.isFinished)
    }

    @Test func unansweredStateReadResumesWithTheProbe() throws {
        var core = try parkedCore()
        _ = try stateRead(core.handle(.linkRestored(maxWriteSize: 495), now: .zero + .seconds(1)))
        let deadline = try #require(core.nextDeadline)
        let probe = try #require(uploadRequests(core.handle(.timerFired, now: deadline)).first)
        #expect(probe.offset == 0 && probe.data.count == ImageUploadJob.minimumFirstChunk)
    }

    /// A core whose first packet went out and whose link was then lost.
    private func parkedCore() throws -> ImageUploadCore {
        var core = ImageUploadCore(job: ImageUploadJob(image: image, sha256: try SHA256.hash(image), slotHash: slotHash),
                                   configuration: ImageUploadConfiguration(window: 1),
                                   client: SMPClientCore(budget: SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475,
                                                                                 deviceReassembles: true)))
        _ = core.handle(.start, now: .zero)
        _ = core.handle(.linkLost, now: .zero + .milliseconds(500))
        return core
    }

    private func frames(_ actions: [ImageUploadCore.Action]) throws -> [SMPFrame] {
        var assembler = SMPFrameAssembler()
        var frames: [SMPFrame] = []
        for case .write(let bytes) in actions {
            if let frame = try assembler.append(bytes) { frames.append(frame) }
        }
        return frames
    }

    private func stateRead(_ actions: [ImageUploadCore.Action]) throws -> SMPFrame {
        let frame = try #require(try frames(actions).first)
        #expect(frame.header.group == .image && frame.header.command == ImageMgmtCommand.state.rawValue && frame.header.op == .read)
        #expect(uploadRequests(actions).isEmpty, "no probe before the answer")
        return frame
    }

    private func uploadRequests(_ actions: [ImageUploadCore.Action]) -> [ImageUploadRequest] {
        ((try? frames(actions)) ?? []).compactMap { frame in
            guard frame.header.command == ImageMgmtCommand.upload.rawValue else { return nil }
            return (try? SMPPacket(frame: frame)).flatMap { try? ImageUploadRequest(body: $0.body) }
        }
    }
}
