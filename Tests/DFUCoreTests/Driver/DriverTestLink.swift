import Synchronization
import Transport

/// A link for the driver's tests: the test sends its events (with any generation, as a late
/// callback would), sees each write it takes, and can make every write fail.
final class DriverTestLink: Link {
    static let characteristic = CharacteristicID(short: 0x5678)

    let parameters: LinkParameters
    let services: [GATTService] = []
    let events: AsyncStream<LinkEvent>
    private let eventSink: AsyncStream<LinkEvent>.Continuation
    /// Each write the link took, in order.
    let written: AsyncStream<[UInt8]>
    private let writtenSink: AsyncStream<[UInt8]>.Continuation
    private let failure = Mutex<LinkError?>(nil)

    init(generation: UInt64) {
        parameters = LinkParameters(generation: LinkGeneration(generation), peer: PeerIdentity("driver-test"),
                                    attMTU: 247, maxWriteWithoutResponse: 244)
        (events, eventSink) = AsyncStream.makeStream(of: LinkEvent.self)
        (written, writtenSink) = AsyncStream.makeStream(of: [UInt8].self)
    }

    /// Puts an event into the stream, stamped with `generation` (the link's own by default).
    func emit(_ kind: LinkEvent.Kind, generation: UInt64? = nil) {
        eventSink.yield(LinkEvent(generation: generation.map(LinkGeneration.init) ?? parameters.generation, kind: kind))
    }

    func failWrites(with error: LinkError) { failure.withLock { $0 = error } }

    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        if let error = failure.withLock({ $0 }) { throw error }
        writtenSink.yield(bytes)
    }

    func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try await writeWithoutResponse(bytes, to: characteristic)
    }

    func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        throw .notSupported(characteristic, missing: .read)
    }

    func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {}

    func disconnect() async {
        emit(.disconnected(.localHostTerminated))
        eventSink.finish()
    }
}
