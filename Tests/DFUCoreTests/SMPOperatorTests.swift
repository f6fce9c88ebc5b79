@testable import DFUCore
import DeviceSim
import ExitCodes
import Synchronization
import Testing
import Transport

/// `SMPOperator`, the library behind `dfu image`, `dfu reset` and `dfu echo`, against the virtual
/// device over the unpaced memory link (`EngineTestBench`).
extension EngineTests {
    @Suite struct SMPOperatorTests {
        /// The defaults (the link is unpaced, so nothing waits for them): a loaded machine must not
        /// turn a slow answer into a failure here.
        static let deadlines = UpdateOptions.Deadlines()

        /// The 1.1.0 sample uploaded by the engine, nothing marked.
        private func upload(_ bench: EngineTestBench) async throws {
            _ = try await bench.flash {
                $0.mode = .uploadOnly
                $0.deadlines = Self.deadlines
            }.result.get()
        }

        private func operating(_ bench: EngineTestBench, events: EventLog? = nil) -> SMPOperator {
            SMPOperator(target: .init(connector: bench.connector, peer: bench.peripheral.identity),
                        deadlines: Self.deadlines, emit: { event in events?.append(event) })
        }

        /// Upload (the engine, upload-only), test, reset and wait, confirm, erase: each step as the
        /// device's own state shows it.
        @Test func anUpdateByHandTestsResetsConfirmsAndErases() async throws {
            let bench = try await EngineTestBench.make()
            let image = try Samples.image(EngineTestBench.image)
            let hash = try EngineTestBench.slotHash(image)
            try await upload(bench)

            let listed = try await operating(bench).listImages()
            #expect(listed.slot(1)?.hash == hash && listed.slot(1)?.pending == false)

            let tested = try await operating(bench).test(hash: hash)
            #expect(tested.slot(1)?.pending == true && tested.slot(1)?.permanent == false)

            let events = EventLog()
            try await operating(bench, events: events).reset(waitForReboot: true)
            #expect(events.kinds == ["connected", "rebooting", "reconnected"])
            #expect(await bench.device.runningImage?.hash == hash)

            let running = try await operating(bench).listImages()
            #expect(running.slot(0)?.hash == hash && running.slot(0)?.active == true && running.slot(0)?.confirmed == false)

            let confirmed = try await operating(bench).confirm(hash: nil)
            #expect(confirmed.slot(0)?.confirmed == true)

            let erased = try await operating(bench).erase(slot: 1)
            #expect(erased.images.count == 1 && erased.slot(1) == nil)
            #expect(try await operating(bench).echo("still there") == "still there")
        }

        /// A hash no slot holds is refused from the image list, before any state write: the device
        /// has nothing pending afterwards.
        @Test func anUnknownHashIsRefusedBeforeAnythingIsWritten() async throws {
            let bench = try await EngineTestBench.make()
            try await upload(bench)
            do {
                _ = try await operating(bench).test(hash: Array(repeating: 0xAB, count: 32))
                Issue.record("an unknown hash was marked for test")
            } catch {
                #expect(error.exitStatus == .deviceRejected)
                #expect(error.description.contains("has no image with hash abababababababab…"), "\(error)")
            }
            #expect(try await operating(bench).listImages().images.allSatisfy { !$0.pending })
        }

        /// A Nordic Secure DFU device has no SMP: a precondition failure, nothing sent.
        @Test func aNordicDeviceIsRefusedAsAPrecondition() async throws {
            let connector = MemoryConnector(clock: .unpaced())
            let nordic = try await VirtualNordicPeripheral.serve(try SimOptions.parse("sim:protocol=nordic"), on: connector)
            let device = SMPOperator(target: .init(connector: connector, peer: nordic.applicationIdentity, label: "the nRF52"),
                                     deadlines: Self.deadlines)
            do {
                _ = try await device.listImages()
                Issue.record("a Nordic device answered an image list")
            } catch {
                #expect(error == .precondition([.notSMP(device: "the nRF52", operation: "'dfu image list'")]))
            }
        }
    }
}

/// The events an operation emitted, from whatever task it emitted them in.
final class EventLog: Sendable {
    private let events = Mutex<[UpdateEvent]>([])

    func append(_ event: UpdateEvent) { events.withLock { $0.append(event) } }

    /// Each event's kind, leaving out logs and warnings.
    var kinds: [String] {
        events.withLock { list in
            list.compactMap { event in
                switch event {
                case .connected: return "connected"
                case .rebooting: return "rebooting"
                case .reconnected: return "reconnected"
                case .log, .warning: return nil
                default: return "\(event)"
                }
            }
        }
    }
}
