@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// The engine against the virtual nRF52 (`DeviceSim`'s Nordic bootloader and buttonless
    /// application, written from the SDK sources, not by the client's hands), over the memory link.
    @Suite(.timeLimit(.minutes(1))) struct NordicSimEngineTests {
        struct Bench {
            let connector: MemoryConnector
            let sim: VirtualNordicPeripheral
        }

        static func bench(_ options: String = "") async throws -> Bench {
            let connector = MemoryConnector(clock: .unpaced())
            let sim = try await VirtualNordicPeripheral.serve(
                try SimOptions.parse("sim:protocol=nordic,inactivity=off" + (options.isEmpty ? "" : "," + options)), on: connector)
            return Bench(connector: connector, sim: sim)
        }

        static func engine(_ bench: Bench, configure: (inout UpdateOptions) -> Void = { _ in }) throws -> UpdateEngine {
            var options = UpdateOptions()
            options.deadlines = EngineTestBench.fastDeadlines
            configure(&options)
            return UpdateEngine(image: try Samples.bytes("nordic/app-signed-3.zip"), imageName: "app-signed-3.zip",
                                key: try NordicSamples.key(), options: options,
                                target: .init(connector: bench.connector, peer: bench.sim.applicationIdentity),
                                hostPower: .mains)
        }

        static func flash(_ bench: Bench, configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
            let run = try engine(bench, configure: configure).start()
            var events: [UpdateEvent] = []
            for await event in run.events { events.append(event) }
            return EngineOutcome(events: events, result: await run.result.value)
        }

        @Test func updatesTheVirtualNRF52() async throws {
            let bench = try await Self.bench()
            let outcome = try await Self.flash(bench)
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(await bench.sim.snapshot.applicationVersion == 3)
        }

        /// The transfer core announces 0 before the bootloader has said where it is (and a fresh
        /// bootloader says 0 too); the first progress shown is past the first object.
        @Test func theFirstProgressIsPastTheBootloadersFirstAnswer() async throws {
            let bench = try await Self.bench()
            let outcome = try await Self.flash(bench)
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            let first = try #require(outcome.progress.first)
            #expect(first.acknowledged > 0 && first.startOffset == 0)
        }

        @Test func theBootloaderIsRenamedWhenAsked() async throws {
            let bench = try await Self.bench()
            let outcome = try await Self.flash(bench) { $0.bootloaderName = "DfuFactory" }
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(await bench.sim.snapshot.bootloaderName == "DfuFactory")
            #expect(await bench.sim.snapshot.applicationVersion == 3)
        }

        /// A run stopped in the middle (Ctrl-C, a dead host) leaves the device in its bootloader at the
        /// address + 1 with what it received; the same command run again finds it there and continues
        /// from the bootloader's offset (SDK 15.0 keeps its progress when the link goes).
        @Test func theSameCommandRunAgainResumesInTheBootloader() async throws {
            let bench = try await Self.bench("sdk=15")
            let first = try Self.engine(bench).start()
            for await event in first.events {
                if case .progress(let progress) = event, progress.acknowledged >= 16_384 { first.result.cancel() }
            }
            guard case .failure = await first.result.value else {
                Issue.record("the first run was meant to be stopped before it ended")
                return
            }
            #expect(await bench.sim.snapshot.currentIdentity == bench.sim.bootloaderIdentity, "left in DFU mode")

            let second = try await Self.flash(bench)
            #expect(second.exitStatus == .success, "\(String(describing: second.error))")
            let firstProgress = try #require(second.progress.first?.acknowledged)
            #expect(firstProgress >= 16_384, "continued from the bootloader's offset, not from 0")
            #expect(await bench.sim.snapshot.applicationVersion == 3)
        }
    }
}

extension EngineTests.NordicSimEngineTests {
    /// The application's link drops before anything was sent to it (while its state is read): the
    /// transfer stage reconnects to it first instead of asking a device that is not there to
    /// enter its bootloader.
    @Test func aLinkLostBeforeTheTransferIsMadeAgainFirst() async throws {
        let bench = try await Self.bench()
        await bench.connector.scheduleFault(.dropAt(.milliseconds(1)), for: bench.sim.applicationIdentity)
        let outcome = try await Self.flash(bench)
        #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
        #expect(await bench.sim.snapshot.applicationVersion == 3)
    }
}
