@testable import DFUCore
import DeviceSim
import Testing
import Transport

extension EngineTests {
    /// Whole updates over a serial line: the console framing and raw packets, log output sharing
    /// the line, a garbled reply, and a USB port that vanishes while the device resets.
    @Suite(.timeLimit(.minutes(2))) struct SerialEngineTests {
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        private func expectUpdated(_ bench: SerialEngineBench, _ outcome: EngineOutcome) async throws {
            #expect(outcome.result == .success(v110), "\(String(describing: outcome.error))")
            #expect(outcome.versionReports.map(\.confirmed) == [true])
            let device = await bench.device
            let hash = try EngineTestBench.slotHash(try Samples.image(EngineTestBench.image))
            #expect(device.server.bootloader.primaryImage?.hash == hash)
            #expect(device.server.bootloader.swapType == .none)
        }

        @Test func consoleFramingUpdatesTheDevice() async throws {
            let bench = try await SerialEngineBench.make()
            let outcome = try await bench.flash()
            try await expectUpdated(bench, outcome)
            #expect(bench.notes.all.isEmpty, "a clean line: no text, nothing dropped")
        }

        @Test func rawPacketsUpdateTheDevice() async throws {
            var serving = SerialServeOptions.fastLine
            serving.framing = .raw
            let bench = try await SerialEngineBench.make(serving: serving)
            try await expectUpdated(bench, try await bench.flash())
        }

        /// The packets are sized from the device's `buf_size` less the 4 bytes of length and CRC.
        @Test func packetsFillTheDeviceBufferLessTheFraming() async throws {
            let bench = try await SerialEngineBench.make("sim:buf_size=1024,buf_count=4")
            try await expectUpdated(bench, try await bench.flash())
            let sizes = bench.serverEvents.all.compactMap { if case .received(let size, _) = $0 { size } else { nil } }
            #expect(sizes.max() == 1020)
        }

        @Test func logLinesBetweenFramesAreShownNotDecoded() async throws {
            var serving = SerialServeOptions.fastLine
            serving.noiseEvery = 3
            let bench = try await SerialEngineBench.make(serving: serving)
            try await expectUpdated(bench, try await bench.flash())
            let texts = bench.notes.all.compactMap { if case .text(let line) = $0 { line } else { nil } }
            #expect(!texts.isEmpty)
            #expect(texts.allSatisfy { $0.contains("<inf> app: heartbeat") })
        }

        /// A reply garbled on the wire is dropped by the decoder; the request is sent again and
        /// the update completes.
        @Test func aGarbledReplyIsDroppedAndTheRequestRetried() async throws {
            var serving = SerialServeOptions.fastLine
            serving.garbleEvery = 9
            let bench = try await SerialEngineBench.make(serving: serving)
            try await expectUpdated(bench, try await bench.flash())
            #expect(bench.notes.all.contains { if case .dropped = $0 { true } else { false } })
        }

        /// Every 7th reply garbled: chunk replies lost mid-upload leave stale chunk requests whose
        /// deadlines outlive the upload (their timer must stay armed for the requests that follow),
        /// and the 28th, the reset's reply, is lost too: the reset is not sent again (a second one
        /// could revert the image under test); the device's silence shows the reboot, and the update
        /// completes.
        @Test func aGarbledResetReplyStillEndsInTheNewImage() async throws {
            var serving = SerialServeOptions.fastLine
            serving.garbleEvery = 7
            let bench = try await SerialEngineBench.make(serving: serving)
            try await expectUpdated(bench, try await bench.flash())
            let resets = bench.serverEvents.all.filter {
                if case .received(_, let header?) = $0 { header.group == .os && header.command == 5 } else { false }
            }
            #expect(resets.count == 1)
            #expect(bench.serverEvents.all.contains(.garbled(replyNumber: 28)))
        }

        /// USB CDC ACM: the port vanishes while the device resets and comes back when it has booted;
        /// the engine reconnects to it and confirms the new version.
        @Test func aPortThatVanishesOnResetIsOpenedAgain() async throws {
            var serving = SerialServeOptions.fastLine
            serving.vanishesOnReset = true
            let bench = try await SerialEngineBench.make(serving: serving)
            try await expectUpdated(bench, try await bench.flash())
        }
    }
}
