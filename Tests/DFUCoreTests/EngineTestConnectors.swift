import Synchronization
import Transport
@testable import DFUCore

/// A connector in front of the memory connector that misbehaves on purpose: the first `failFast`
/// attempts throw at once (a stack that refuses), and after `reachable` successful connections the
/// device is never found again (the attempt waits until its deadline and times out).
final class ScriptedConnector: Connector {
    private struct State {
        var failuresLeft: Int
        var connectionsLeft: Int
        var attempts = 0
        var allowances: [Duration] = []
    }

    private let inner: MemoryConnector
    private let state: Mutex<State>
    private let failure: LinkError

    init(_ inner: MemoryConnector, failFast: Int = 0, reachable: Int = .max,
         failure: LinkError = .backend("org.bluez.Error.Failed: le-connection-abort-by-local")) {
        self.inner = inner
        self.failure = failure
        state = Mutex(State(failuresLeft: failFast, connectionsLeft: reachable))
    }

    var attempts: Int { state.withLock { $0.attempts } }

    /// For each attempt, the time its deadline left when the attempt began: at most the engine's
    /// connect deadline, whatever the machine's speed.
    var allowances: [Duration] { state.withLock { $0.allowances } }

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        enum Step { case fail, vanish, connect }
        let allowance = ContinuousClock.now.duration(to: deadline)
        let step: Step = state.withLock { state in
            state.attempts += 1
            state.allowances.append(allowance)
            if state.failuresLeft > 0 {
                state.failuresLeft -= 1
                return .fail
            }
            if state.connectionsLeft <= 0 { return .vanish }
            state.connectionsLeft -= 1
            return .connect
        }
        switch step {
        case .fail:
            throw failure
        case .vanish:
            do { try await Task.sleep(until: deadline, clock: .continuous) } catch { throw .cancelled }
            throw .timeout
        case .connect:
            return try await inner.connect(to: peer, deadline: deadline)
        }
    }
}

extension EngineTestBench {
    /// Like `flash`, through `connector` instead of the bench's own.
    func flash(through connector: any Connector, configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
        try await Self.flash(peripheral.identity, through: connector, configure: configure)
    }

    /// The 1.1.0 sample to `peer` through `connector`, with the bench's short deadlines.
    static func flash(_ peer: PeerIdentity, through connector: any Connector,
                      configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
        var options = UpdateOptions()
        options.deadlines = Self.fastDeadlines
        configure(&options)
        let engine = UpdateEngine(image: try Samples.image(Self.image), imageName: "test.bin", key: try Samples.key("ecdsa-p256"),
                                  options: options, target: .init(connector: connector, peer: peer),
                                  hostPower: .mains)
        let collected = Locked<[UpdateEvent]>([])
        let result = await engine.run { event in collected.withLock { $0.append(event) } }
        return EngineOutcome(events: collected.withLock { $0 }, result: result)
    }
}

/// A device that is not an SMP target, or one whose SMP never answers.
struct StubPeripheral: MemoryPeripheral {
    var services: [GATTService]

    /// Battery Service only: a sensor without MCUmgr.
    static let withoutSMP = StubPeripheral(services: [
        GATTService(StandardGATT.batteryService, characteristics: [GATTCharacteristic(StandardGATT.batteryLevel, properties: [.read])]),
    ])

    /// The SMP characteristic without notify: replies could never arrive.
    static let smpWithoutNotify = StubPeripheral(services: [
        GATTService(SMPGATT.service, characteristics: [
            GATTCharacteristic(SMPGATT.characteristic, properties: [.writeWithoutResponse]),
        ]),
    ])

    /// SMP as it should be, but every request goes unanswered.
    static let silentSMP = StubPeripheral(services: [
        GATTService(SMPGATT.service, characteristics: [
            GATTCharacteristic(SMPGATT.characteristic, properties: [.writeWithoutResponse, .notify]),
        ]),
    ])

    var gattServices: [GATTService] { get async { services } }

    func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {}

    /// Registers the stub as `peer` on a fresh unpaced memory connector.
    func serve(as peer: PeerIdentity) async throws -> MemoryConnector {
        let connector = MemoryConnector(clock: .unpaced())
        await connector.register(self, as: peer, profile: .fast2M)
        return connector
    }
}

/// A connector whose links, from the second on, deliver a late `.disconnected` of the link before
/// them (stamped with the earlier generation) right after their first notification: what a stack
/// may do when the old connection's teardown is reported late.
final class LateEventConnector: Connector {
    private let inner: MemoryConnector

    init(_ inner: MemoryConnector) { self.inner = inner }

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        let link = try await inner.connect(to: peer, deadline: deadline)
        let generation = link.parameters.generation
        guard generation > LinkGeneration(1) else { return link }
        return LateEventLink(link, late: LinkEvent(generation: LinkGeneration(generation.rawValue - 1),
                                                   kind: .disconnected(.connectionTimeout)))
    }
}

/// `inner` with one stale event slipped into its event stream.
struct LateEventLink: ForwardingLink {
    let inner: any Link
    let events: AsyncStream<LinkEvent>

    init(_ inner: any Link, late: LinkEvent) {
        self.inner = inner
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        self.events = events
        Task {
            var injected = false
            for await event in inner.events {
                continuation.yield(event)
                if !injected, case .notification = event.kind {
                    injected = true
                    continuation.yield(late)
                }
            }
            continuation.finish()
        }
    }
}
