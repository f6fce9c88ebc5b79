import DeviceSim
import Synchronization
import Testing
import Transport
@testable import DFUCore

extension EngineTests {
    /// A link loss right after the device wrote the last chunk, its reply lost: the device closed its
    /// upload session (as Zephyr does at `off == len`), so the resume probe would open a new one and
    /// erase slot 1. The engine reads the image list on the new link first and finds the image there.
    @Suite(.timeLimit(.minutes(1))) struct EngineLastReplyTests {
        @Test func doesNotUploadAgainWhenOnlyTheLastReplyWasLost() async throws {
            let image = try Samples.image(EngineTestBench.image)
            let slotHash = try EngineTestBench.slotHash(image)
            let bench = try await EngineTestBench.make("sim:fault=disconnect@100%")
            let uploads = UploadRequestLog()
            let outcome = try await bench.flash(uploads: uploads)
            #expect(outcome.result == .success(ImageVersion(major: 1, minor: 1, revision: 0)))
            #expect(outcome.warnings.contains { $0.contains("lost") }, "the fault fired")
            let resume = try #require(outcome.resumes.first)
            #expect(resume.offset == image.count, "the device already held the whole image")

            // At most one chunk beyond the image: the last one (written, reply lost) is not sent again.
            let chunk = try #require(uploads.chunks.max())
            #expect(uploads.dataBytes - image.count <= chunk, "extra bytes: \(uploads.dataBytes - image.count)")
            // One off-0 packet, the run's first: no second session was opened, so nothing erased slot 1.
            #expect(uploads.firstPackets == 1)
            #expect(await bench.device.server.bootloader.primaryImage?.hash == slotHash)
        }
    }
}

/// Image upload requests the engine wrote, taken from the bytes on the link: data bytes, the size
/// of each chunk and how many were first (`off == 0`) packets.
final class UploadRequestLog: Sendable {
    private let state = Mutex((dataBytes: 0, chunks: [Int](), firstPackets: 0))
    private let assembler = Mutex(SMPFrameAssembler())
    private let firsts = Mutex([ImageUploadRequest]())

    /// Every first packet, with its data left out.
    var firstPacketRequests: [ImageUploadRequest] { firsts.withLock { $0 } }

    var dataBytes: Int { state.withLock { $0.dataBytes } }
    var chunks: [Int] { state.withLock { $0.chunks } }
    var firstPackets: Int { state.withLock { $0.firstPackets } }

    func note(_ bytes: [UInt8]) {
        guard let frame = try? assembler.withLock({ assembler throws(SMPFrameError) in try assembler.append(bytes) })
        else { return }
        let header = frame.header
        guard header.group == .image, header.command == ImageMgmtCommand.upload.rawValue, header.op == .write,
              let packet = try? SMPPacket(frame: frame),
              let request = try? ImageUploadRequest(body: packet.body) else { return }
        state.withLock {
            $0.dataBytes += request.data.count
            $0.chunks.append(request.data.count)
            if request.offset == 0 { $0.firstPackets += 1 }
        }
        if request.offset == 0 {
            var first = request
            first.data = []
            firsts.withLock { $0.append(first) }
        }
    }
}

struct UploadCountingConnector: Connector {
    let inner: any Connector
    let log: UploadRequestLog

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        UploadCountingLink(inner: try await inner.connect(to: peer, deadline: deadline), log: log)
    }
}

struct UploadCountingLink: ForwardingLink {
    let inner: any Link
    let log: UploadRequestLog

    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try await inner.writeWithoutResponse(bytes, to: characteristic)
        log.note(bytes)
    }

    func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try await inner.write(bytes, to: characteristic)
        log.note(bytes)
    }
}
