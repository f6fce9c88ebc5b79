import Synchronization
@testable import Transport

/// Watches one `FDPump` from a test: every event it delivered, in order (also any after the first
/// `.ended`, which would be a bug), and a signal that the pump and its thread let go of `deliver`.
final class FDPumpProbe: Sendable {
    enum Seen: Hashable, Sendable {
        case message([UInt8])
        case ended(FDPumpEnd)
    }

    private let log = Mutex<[Seen]>([])
    private let events: AsyncStream<Seen>
    private let sink: AsyncStream<Seen>.Continuation
    private let released: AsyncStream<Void>

    private init(released: AsyncStream<Void>) {
        (events, sink) = AsyncStream.makeStream(of: Seen.self)
        self.released = released
    }

    /// Starts a pump on `descriptor` (the pump owns it) that reports to a new probe.
    static func start(owning descriptor: Int32, policy: FDPumpPolicy) throws -> (FDPump, FDPumpProbe) {
        let (released, signal) = AsyncStream.makeStream(of: Void.self)
        let probe = FDPumpProbe(released: released)
        let reporter = Reporter(probe: probe, released: signal)
        let pump = try FDPump.start(owning: descriptor, policy: policy) { reporter.deliver($0) }
        return (pump, probe)
    }

    /// Everything delivered so far.
    var seen: [Seen] { log.withLock { $0 } }

    /// The next `count` events (fewer if the pump ended first).
    func next(_ count: Int) async -> [Seen] {
        var taken: [Seen] = []
        for await event in events {
            taken.append(event)
            if taken.count == count { break }
        }
        return taken
    }

    /// Events up to and including the first `.ended`.
    func untilEnded() async -> [Seen] {
        var taken: [Seen] = []
        for await event in events { taken.append(event) }
        return taken
    }

    /// Returns once the pump is gone: its thread exited and no one else holds it.
    func waitUntilReleased() async {
        for await _ in released {}
    }

    fileprivate func record(_ event: FDPumpEvent) {
        let seen: Seen
        switch event {
        case .received(let bytes, _): seen = .message(bytes)
        case .ended(let end): seen = .ended(end)
        }
        log.withLock { $0.append(seen) }
        sink.yield(seen)
        if case .ended = seen { sink.finish() }
    }
}

/// The pump's `deliver`: it lives exactly as long as the pump, so its `deinit` says the pump is gone.
private final class Reporter: Sendable {
    let probe: FDPumpProbe
    let released: AsyncStream<Void>.Continuation

    init(probe: FDPumpProbe, released: AsyncStream<Void>.Continuation) {
        self.probe = probe
        self.released = released
    }

    deinit { released.finish() }

    func deliver(_ event: FDPumpEvent) { probe.record(event) }
}
