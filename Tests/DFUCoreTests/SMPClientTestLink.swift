import Synchronization
import Transport
@testable import DFUCore

/// A `Link` whose far end is an `UploadTestDevice`, answering at once: for the driver's tests,
/// which are about plumbing (ordering, generations, link changes), not timing. The link can be
/// told to go silent, to drop after a number of requests, or to emit an event stamped with
/// another generation.
final class SMPClientTestLink: Link {
    struct State {
        var device: UploadTestDevice
        var requests = 0
        var silent = false
        var dropAfterRequests: Int?
        var down = false
        var subscribed = false
        /// What every write fails with instead of reaching the device (a host refusing writes on a
        /// link going down).
        var writeError: LinkError?
        /// Callers of `waitForRequests`, with the count each waits for.
        var requestWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes the waiters whose count has been reached.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let satisfied = requestWaiters.filter { $0.count <= requests }.map(\.continuation)
            requestWaiters.removeAll { $0.count <= requests }
            return satisfied
        }
    }

    let parameters: LinkParameters
    let services: [GATTService] = []
    let events: AsyncStream<LinkEvent>
    private let continuation: AsyncStream<LinkEvent>.Continuation
    private let state: Mutex<State>
    /// Finishes when the link goes down.
    let downSignal: AsyncStream<Void>
    private let downContinuation: AsyncStream<Void>.Continuation

    init(generation: UInt64 = 1, maxWrite: Int = 244, device: UploadTestDevice = UploadTestDevice(),
         dropAfterRequests: Int? = nil) {
        parameters = LinkParameters(generation: LinkGeneration(generation), peer: PeerIdentity("test"),
                                    attMTU: maxWrite + 3, maxWriteWithoutResponse: maxWrite)
        (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        (downSignal, downContinuation) = AsyncStream.makeStream(of: Void.self)
        state = Mutex(State(device: device, dropAfterRequests: dropAfterRequests))
    }

    var device: UploadTestDevice { state.withLock { $0.device } }
    var isSubscribed: Bool { state.withLock { $0.subscribed } }

    func setSilent(_ silent: Bool) { state.withLock { $0.silent = silent } }

    func failWrites(with error: LinkError?) { state.withLock { $0.writeError = error } }

    /// Returns once the link has carried `count` whole requests, answered or not: a request the
    /// session sent is waiting for its answer (and its deadline is set).
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let arrived = state.withLock { state in
                guard state.requests < count else { return true }
                state.requestWaiters.append((count, continuation))
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// Puts an event with any generation into the stream, as a late callback would.
    func inject(_ event: LinkEvent) { continuation.yield(event) }

    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        let maxWrite = parameters.maxWriteWithoutResponse
        guard bytes.count <= maxWrite else { throw .payloadTooLarge(size: bytes.count, limit: maxWrite) }
        if let error = state.withLock({ $0.down ? nil : $0.writeError }) { throw error }
        var arrivals: [CheckedContinuation<Void, Never>] = []
        defer { for waiter in arrivals { waiter.resume() } }
        let outcome: (notifications: [[UInt8]], drop: Bool)? = state.withLock { state in
            guard !state.down else { return nil }
            guard let frame = state.device.receive(write: bytes) else { return ([], false) }
            state.requests += 1
            arrivals = state.takeSatisfiedWaiters()
            let reply = (try? state.device.respond(to: frame).encoded()) ?? []
            if let limit = state.dropAfterRequests, state.requests >= limit {
                state.down = true
                return ([], true)
            }
            if state.silent { return ([], false) }
            return (stride(from: 0, to: reply.count, by: maxWrite).map { Array(reply[$0..<min($0 + maxWrite, reply.count)]) }, false)
        }
        guard let outcome else { throw .disconnected(.connectionTimeout) }
        for piece in outcome.notifications {
            continuation.yield(LinkEvent(generation: parameters.generation, kind: .notification(characteristic, piece)))
        }
        if outcome.drop { goDown(.connectionTimeout) }
    }

    func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        throw .notSupported(characteristic, missing: .write)
    }

    func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        throw .notSupported(characteristic, missing: .read)
    }

    func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        state.withLock { $0.subscribed = true }
    }

    func disconnect() async { goDown(.localHostTerminated) }

    private func goDown(_ reason: DisconnectReason) {
        state.withLock { $0.down = true }
        continuation.yield(LinkEvent(generation: parameters.generation, kind: .disconnected(reason)))
        continuation.finish()
        downContinuation.finish()
    }
}
