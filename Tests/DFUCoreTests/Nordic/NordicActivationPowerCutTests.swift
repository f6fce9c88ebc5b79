@testable import DFUCore
import DeviceSim
import ExitCodes
import Synchronization
import Testing
import Transport

extension EngineTests {
    /// The virtual nRF52 loses power as the final Execute (the one that activates the firmware)
    /// arrives: the bootloader never executes the last object and the device starts its old
    /// application. The final Execute is then unanswered, as when the bootloader answers and
    /// resets at once (by design "the new version decides"); without `--expect-version` dfu used to
    /// report the update done (exit 0, "activated") for a device running its old application
    /// (faults finding 8, `nordic-power-cycle-at-activation`).
    @Suite(.timeLimit(.minutes(1))) struct NordicActivationPowerCutTests {
        @Test func anApplicationBackWithItsOldRevisionAfterAnUnansweredFinalExecuteIsNotReportedActivated() async throws {
            let bench = try await NordicSimEngineTests.bench()
            let cut = PowerCutAtFinalExecute(inner: bench.connector, sim: bench.sim)
            let first = try await NordicSimEngineTests.flash(bench, through: cut)
            #expect(cut.fired, "the power cut came at the final Execute")
            #expect(first.exitStatus == .transferInterrupted, "\(first.result)")
            #expect(first.error?.description.contains("as before the update") == true, "\(first.result)")
            #expect(await bench.sim.snapshot.applicationVersion == 1, "the device runs its old application")

            let rerun = try await NordicSimEngineTests.flash(bench, through: bench.connector)
            #expect(rerun.exitStatus == .success, "\(rerun.result)")
            #expect(await bench.sim.snapshot.applicationVersion == 3)
        }

        @Test func withExpectVersionTheRevisionDecidesAsBefore() async throws {
            let bench = try await NordicSimEngineTests.bench()
            let cut = PowerCutAtFinalExecute(inner: bench.connector, sim: bench.sim)
            let first = try await NordicSimEngineTests.flash(bench, through: cut) { $0.expectedVersion = "0.0.3" }
            #expect(first.exitStatus == .postRebootCheckFailed, "\(first.result)")
        }
    }
}

extension EngineTests.NordicSimEngineTests {
    static func flash(_ bench: Bench, through connector: any Connector,
                      configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
        var options = UpdateOptions()
        options.deadlines = EngineTestBench.fastDeadlines
        configure(&options)
        let engine = UpdateEngine(image: try Samples.bytes("nordic/app-signed-3.zip"), imageName: "app-signed-3.zip",
                                  key: try NordicSamples.key(), options: options,
                                  target: .init(connector: connector, peer: bench.sim.applicationIdentity),
                                  hostPower: .mains)
        let run = engine.start()
        var events: [UpdateEvent] = []
        for await event in run.events { events.append(event) }
        return EngineOutcome(events: events, result: await run.result.value)
    }
}

/// Power-cycles the virtual nRF52 as the host is about to write Execute once it has written every
/// Packet byte of the sample (its 141-byte init packet and 49,152 bytes of firmware): the final
/// Execute never reaches the bootloader.
final class PowerCutAtFinalExecute: Connector {
    static let packetBytes = 141 + 49_152
    let inner: any Connector
    let sim: VirtualNordicPeripheral
    private let state = Mutex((packets: 0, fired: false))

    init(inner: any Connector, sim: VirtualNordicPeripheral) {
        self.inner = inner
        self.sim = sim
    }

    var fired: Bool { state.withLock { $0.fired } }

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        Watched(inner: try await inner.connect(to: peer, deadline: deadline), owner: self)
    }

    func connect(toAnyOf peers: [PeerIdentity],
                 deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        let (peer, link) = try await inner.connect(toAnyOf: peers, deadline: deadline)
        return (peer, Watched(inner: link, owner: self))
    }

    fileprivate func packet(_ count: Int) {
        state.withLock { $0.packets += count }
    }

    fileprivate func willWrite(_ request: [UInt8]) async {
        let due = state.withLock { state in
            guard request == [0x04], state.packets >= Self.packetBytes, !state.fired else { return false }
            state.fired = true
            return true
        }
        if due { await sim.powerCycle() }
    }

    private struct Watched: ForwardingLink {
        let inner: any Link
        let owner: PowerCutAtFinalExecute

        func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
            try await inner.writeWithoutResponse(bytes, to: characteristic)
            if characteristic == NordicDFUService.packet { owner.packet(bytes.count) }
        }

        func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
            if characteristic == NordicDFUService.controlPoint { await owner.willWrite(bytes) }
            try await inner.write(bytes, to: characteristic)
        }

        func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] { try await inner.read(characteristic) }
        func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) { try await inner.subscribe(characteristic) }
        func disconnect() async { await inner.disconnect() }
    }
}
