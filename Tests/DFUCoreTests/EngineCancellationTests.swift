@testable import DFUCore
import DeviceSim
import Testing
import Transport

extension EngineTests {
    /// A cancelled run (the CLI's Ctrl-C) stops where it is: an upload cut short is not taken for a
    /// finished one, so nothing is marked, reset or confirmed, and the run ends resumable.
    @Suite(.timeLimit(.minutes(1))) struct EngineCancellationTests {
        @Test func cancellingDuringTheTransferActivatesNothing() async throws {
            // Real time, so the upload lasts long enough (about half a second) to be cut.
            let connector = MemoryConnector(clock: .realTime())
            let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim"), on: connector)
            var options = UpdateOptions()
            options.deadlines = EngineTestBench.fastDeadlines
            let engine = UpdateEngine(image: try Samples.image(EngineTestBench.image), imageName: "test.bin",
                                      key: try Samples.key("ecdsa-p256"), options: options,
                                      target: .init(connector: connector, peer: peripheral.identity), hostPower: .mains)
            let run = engine.start()
            var events: [UpdateEvent] = []
            for await event in run.events {
                events.append(event)
                if case .progress(let progress) = event, progress.acknowledged > 0 { run.result.cancel() }
            }
            let result = await run.result.value
            guard case .failure(.transferInterrupted(let message, _)) = result else {
                Issue.record("expected a resumable interruption, got \(result)")
                return
            }
            #expect(message.contains("cancelled"))
            let started = events.compactMap { if case .stageStarted(let stage) = $0 { stage } else { nil } }
            #expect(!started.contains(.activate), "stages: \(started)")
            #expect(!events.contains { if case .stageFinished(.transfer, _) = $0 { true } else { false } },
                    "a cut upload is no finished transfer")
            let device = await peripheral.snapshot
            #expect(device.server.bootloader.swapType == .none, "nothing was marked")
            #expect(device.boots.isEmpty, "the device was not reset")
        }
    }
}
