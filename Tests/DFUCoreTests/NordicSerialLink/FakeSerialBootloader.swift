@testable import DFUCore
import Synchronization
import Transport

/// A byte link whose other end is a scripted bootloader, for `NordicSerialLink` and
/// `NordicSerialConnector` tests: it keeps every byte written, decodes the SLIP frames, answers
/// as `respond` says, and lets a test push bytes or end the line.
final class FakeSerialBootloader: Sendable {
    static let characteristic = NordicSerialLink.byteFace.characteristic

    /// The answer frames (unframed bytes) to one request frame.
    typealias Responder = @Sendable (_ frame: [UInt8], _ index: Int) -> [[UInt8]]

    private struct State {
        var written: [UInt8] = []
        var writes: [[UInt8]] = []
        var frames: [[UInt8]] = []
        var decoder = SLIPDecoder(maximumFrameSize: 4096)
        var generation = LinkGeneration(0)
        var client: AsyncStream<LinkEvent>.Continuation?
        var clientGeneration = LinkGeneration(0)
    }

    private let state = Mutex(State())
    private let respond: Responder
    let maxWrite: Int
    let ceiling: Double?

    init(maxWrite: Int = 4096, ceiling: Double? = 11_520, respond: @escaping Responder = FakeSerialBootloader.standard()) {
        self.maxWrite = maxWrite
        self.ceiling = ceiling
        self.respond = respond
    }

    /// Answers pings (echoing the id) and Get MTU with `mtu`; nothing else.
    static func standard(mtu: UInt16 = NordicSerialLimits.uartMTU, ignoringPings: Int = 0) -> Responder {
        let pings = Mutex(0)
        return { frame, _ in
            switch NordicSerialRequest(decoding: frame) {
            case .ping(let id)?:
                let seen = pings.withLock { count in
                    count += 1
                    return count
                }
                return seen > ignoringPings ? [NordicSerialResponse.ping(id: id).encoded] : []
            case .getMTU?:
                return [NordicSerialResponse.mtu(mtu).encoded]
            default:
                return []
            }
        }
    }

    var written: [UInt8] { state.withLock { $0.written } }
    /// Whether a client's byte link is open.
    var isOpen: Bool { state.withLock { $0.client != nil } }
    var writes: [[UInt8]] { state.withLock { $0.writes } }
    /// Every frame the client wrote, decoded.
    var frames: [[UInt8]] { state.withLock { $0.frames } }

    /// Sends bytes to the client as the line delivers them.
    func send(_ bytes: [UInt8]) {
        state.withLock { state in
            _ = state.client?.yield(LinkEvent(generation: state.clientGeneration, kind: .notification(Self.characteristic, bytes)))
        }
    }

    /// The port goes away.
    func vanish() {
        state.withLock { state in
            state.client?.yield(LinkEvent(generation: state.clientGeneration,
                                          kind: .disconnected(.other("the serial port went away"))))
            state.client?.finish()
            state.client = nil
        }
    }

    var connector: Connector { Connector(bootloader: self) }

    fileprivate func open() -> ByteLink {
        state.withLock { state in
            state.client?.finish()
            state.generation = state.generation.next
            let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
            state.client = continuation
            state.clientGeneration = state.generation
            return ByteLink(bootloader: self, generation: state.generation, events: events)
        }
    }

    fileprivate func clientWrote(_ bytes: [UInt8], generation: LinkGeneration) throws(LinkError) {
        let replies: [[UInt8]] = try state.withLock { (state: inout State) throws(LinkError) -> [[UInt8]] in
            guard state.client != nil, state.clientGeneration == generation else {
                throw .disconnected(.other("the serial port went away"))
            }
            state.written += bytes
            state.writes.append(bytes)
            var replies: [[UInt8]] = []
            for case .frame(let frame) in state.decoder.receive(bytes) {
                state.frames.append(frame)
                replies += respond(frame, state.frames.count - 1)
            }
            return replies
        }
        for reply in replies { send(SLIPEncoder.encode(reply)) }
    }

    fileprivate func clientClosed(_ generation: LinkGeneration) {
        state.withLock { state in
            guard state.clientGeneration == generation, let client = state.client else { return }
            client.yield(LinkEvent(generation: generation, kind: .disconnected(.localHostTerminated)))
            client.finish()
            state.client = nil
        }
    }

    struct Connector: Transport.Connector {
        let bootloader: FakeSerialBootloader
        func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
            bootloader.open()
        }
    }

    final class ByteLink: Link {
        let parameters: LinkParameters
        let services: [GATTService]
        let events: AsyncStream<LinkEvent>
        private let bootloader: FakeSerialBootloader

        init(bootloader: FakeSerialBootloader, generation: LinkGeneration, events: AsyncStream<LinkEvent>) {
            self.bootloader = bootloader
            self.events = events
            parameters = LinkParameters(generation: generation, peer: PeerIdentity("serial:/dev/ttyFAKE"),
                                        attMTU: bootloader.maxWrite + 3, maxWriteWithoutResponse: bootloader.maxWrite,
                                        writeCommandCeiling: bootloader.ceiling, isConnectionless: true)
            services = NordicSerialLink.byteFace.services
        }

        func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
            guard bytes.count <= parameters.maxWriteWithoutResponse else {
                throw .payloadTooLarge(size: bytes.count, limit: parameters.maxWriteWithoutResponse)
            }
            try bootloader.clientWrote(bytes, generation: parameters.generation)
        }
        func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
            throw .notSupported(characteristic, missing: .write)
        }
        func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
            throw .notSupported(characteristic, missing: .read)
        }
        func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {}
        func disconnect() async { bootloader.clientClosed(parameters.generation) }
    }
}
