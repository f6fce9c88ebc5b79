@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// The device resets by itself during the activation (a watchdog, a brown-out) at the mark or at
    /// the reset request, before or after answering: the update completes, the new image confirmed,
    /// and dfu never resets a device that already runs the new image on test (MCUboot would revert
    /// it). Found by `dfu-faults` (docs/faults.md, finding 7).
    @Suite(.timeLimit(.minutes(1))) struct EngineActivationResetTests {
        let slotHash: [UInt8]
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        init() throws {
            slotHash = try EngineTestBench.slotHash(try Samples.image(EngineTestBench.image))
        }

        private func expectUpdated(_ bench: EngineTestBench, boots: Int) async {
            let device = await bench.device
            #expect(device.server.bootloader.primaryImage?.hash == slotHash)
            #expect(device.server.bootloader.swapType == .none, "confirmed: nothing pending for the next boot")
            #expect(device.boots.count == boots, "\(device.boots.map(\.outcome))")
        }

        /// It takes the mark and resets instead of answering: MCUboot installs the image on test.
        /// dfu used to mark it again after reconnecting, which Zephyr refuses for the running image
        /// (IMAGE_SETTING_TEST_TO_ACTIVE_DENIED): exit 7, the device left on an unconfirmed image.
        @Test func aDeviceThatRestartsAsItTakesTheMarkIsConfirmedNotMarkedAgain() async throws {
            let bench = try await EngineTestBench.make("sim:fault=reboot@request:state-write")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110), "\(outcome.result)")
            #expect(outcome.warnings.contains { $0.contains("restarted by itself") }, "\(outcome.warnings)")
            #expect(!outcome.started.contains(.reconnect), "no reset was sent, so there is no reboot to wait for")
            await expectUpdated(bench, boots: 1)
        }

        /// It answers the mark, then resets before the reset request. Here dfu's reset goes into
        /// the dying link (lost, tolerated); where the host reports the loss before dfu sends it,
        /// dfu reconnects first and must not reset the device it finds running the new image on
        /// test (it used to: MCUboot reverted it, exit 8, 2 of the first 4 `reboot-after-mark`
        /// runs of the campaign on a loaded machine; that ordering is not forced here).
        @Test func aDeviceThatRestartsRightAfterAnsweringTheMarkIsNotResetAgain() async throws {
            let bench = try await EngineTestBench.make("sim:fault=reboot-after@request:state-write")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110), "\(outcome.result)")
            await expectUpdated(bench, boots: 1)
        }

        /// It resets as the mark arrives: nothing was marked, so dfu marks again and resets.
        @Test func aDeviceThatRestartsAsTheMarkArrivesIsMarkedAgain() async throws {
            let bench = try await EngineTestBench.make("sim:fault=reboot-before@request:state-write")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110), "\(outcome.result)")
            await expectUpdated(bench, boots: 2)
        }

        /// It resets at once when the reset request arrives, without answering: that is the reset.
        @Test func aDeviceThatRestartsAtTheResetRequestWithoutAnsweringIsChecked() async throws {
            let bench = try await EngineTestBench.make("sim:fault=reboot@request:reset")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110), "\(outcome.result)")
            await expectUpdated(bench, boots: 1)
        }
    }
}
