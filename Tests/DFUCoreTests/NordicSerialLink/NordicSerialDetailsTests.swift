@testable import DFUCore
import Synchronization
import Testing
import Transport

/// What `dfu info` asks an nRF5 SDK bootloader over the line besides its objects
/// (`NordicSerialDetails.read`): protocol, hardware and firmware versions, up to the image that
/// answers "no image"; a refusal leaves a field empty, a silence ends the questions.
@Suite(.timeLimit(.minutes(1))) struct NordicSerialDetailsTests {
    static let hardware = NordicHardwareVersion(part: 0x52840, variant: 0x4141_4430, romSize: 1_048_576, ramSize: 262_144,
                                                romPageSize: 4096)
    static let images = [
        NordicFirmwareVersion(type: .bootloader, version: 2, address: 0xF8000, length: 24576),
        NordicFirmwareVersion(type: .softdevice, version: 7_002_000, address: 0x1000, length: 155_648),
        NordicFirmwareVersion(type: .application, version: 3, address: 0x27000, length: 0),
    ]

    /// Pings and Get MTU as `FakeSerialBootloader.standard`, then `answer` for everything else.
    static func bootloader(_ answer: @escaping @Sendable (NordicSerialRequest) -> NordicSerialResponse?) -> FakeSerialBootloader {
        let standard = FakeSerialBootloader.standard()
        return FakeSerialBootloader { frame, index in
            guard let request = NordicSerialRequest(decoding: frame) else { return [] }
            switch request {
            case .ping, .getMTU: return standard(frame, index)
            default: return answer(request).map { [$0.encoded] } ?? []
            }
        }
    }

    /// The frames after the connect's ping and Get MTU.
    static func questions(_ bootloader: FakeSerialBootloader) -> [[UInt8]] { Array(bootloader.frames.dropFirst(2)) }

    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func everyQuestionIsAnsweredUpToTheImageThatIsNone() async throws {
        let fake = Self.bootloader { request in
            switch request {
            case .protocolVersion: return .protocolVersion(1)
            case .hardwareVersion: return .hardwareVersion(Self.hardware)
            case .firmwareVersion(let image):
                return .firmwareVersion(Int(image) < Self.images.count ? Self.images[Int(image)]
                    : NordicFirmwareVersion(type: .none, version: 0, address: 0, length: 0))
            default: return nil
            }
        }
        let link = try await NordicSerialLinkTests.connect(fake)
        let details = await NordicSerialDetails.read(on: link, timeout: .seconds(2)) { _ in }
        #expect(details == NordicSerialDetails(mtu: 131, writeSize: 64, protocolVersion: 1, hardware: Self.hardware,
                                               firmware: Self.images))
        #expect(Self.questions(fake) == [[0x00], [0x0A], [0x0B, 0], [0x0B, 1], [0x0B, 2], [0x0B, 3]])
        await link.disconnect()
    }

    /// An SDK built without the version messages refuses them: nothing is shown, nothing fails.
    @Test func refusedQuestionsLeaveTheirFieldsEmpty() async throws {
        let fake = Self.bootloader { request in
            guard let opcode = NordicSerialOpcode(rawValue: request.opcode) else { return nil }
            return .refused(opcode, NordicRemoteError(result: .opcodeNotSupported))
        }
        let link = try await NordicSerialLinkTests.connect(fake)
        let log = Log()
        let details = await NordicSerialDetails.read(on: link, timeout: .seconds(2)) { log.add($0) }
        #expect(details == NordicSerialDetails(mtu: 131, writeSize: 64))
        #expect(Self.questions(fake) == [[0x00], [0x0A], [0x0B, 0]])
        #expect(log.all.count == 3, "\(log.all)")
        await link.disconnect()
    }

    /// A question left unanswered ends the reading: a late answer must not be taken for the next.
    @Test func aSilenceEndsTheQuestions() async throws {
        let fake = Self.bootloader { request in request == .protocolVersion ? .protocolVersion(1) : nil }
        let link = try await NordicSerialLinkTests.connect(fake)
        let log = Log()
        let details = await NordicSerialDetails.read(on: link, timeout: .milliseconds(100)) { log.add($0) }
        #expect(details == NordicSerialDetails(mtu: 131, writeSize: 64, protocolVersion: 1))
        #expect(Self.questions(fake) == [[0x00], [0x0A]])
        #expect(log.all == ["no answer to Hardware Version"])
        await link.disconnect()
    }
}
