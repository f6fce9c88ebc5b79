import Foundation
import Testing

/// `dfu flash` through MCUboot's serial recovery, the `dfu` binary against `dfu sim --serve
/// serial:PATH,recovery`: what the user sees when the application answers afterwards, when it does
/// not, and `--enter-recovery` from a running application.
@Suite(.serialized, .endToEnd) struct SerialRecoveryFlashCLITests {
    typealias SerialSim = SerialFlashCLITests.SerialSim
    static let image = FlashCLITests.image
    static let key = FlashCLITests.key

    @Test func theImageGoesIntoThePrimarySlotAndTheApplicationIsChecked() throws {
        let sim = try SerialSim(",baud=1000000,recovery,usb")
        #expect(sim.isReady, "\(sim.readyLine)")
        let device = "serial:\(sim.path),baud=1000000,recovery"
        let run = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key], timeout: 90)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("MCUboot lists 1.1.0+0 valid in its primary slot (hash checked); resetting"), "\(run.stdout)")
        #expect(!run.stdout.contains("marked for test"), "nothing is marked in recovery")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on \(device)") == true, "\(run.stdout)")
        let ended = sim.stop()
        #expect(ended.stdoutLines.contains { $0.contains("upload into the primary slot complete") }, "\(ended.stdoutLines)")
    }

    /// An application with no SMP on the port: the run ends OK and says exactly what was checked.
    @Test func anApplicationWithoutSMPOnThePortIsNotReadAndTheResultSaysSo() throws {
        let sim = try SerialSim(",baud=1000000,recovery,app-silent")
        #expect(sim.isReady, "\(sim.readyLine)")
        let device = "serial:\(sim.path),baud=1000000,recovery"
        let run = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key, "--connect-timeout", "5",
                                  "--json"], timeout: 90)
        #expect(run.exitCode == 0, "\(run.output)")
        let events = run.stdoutLines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        let written = events.first { $0["event"] as? String == "recovery-written" }
        #expect(written?["checked"] as? String == "hash" && written?["version"] as? String == "1.1.0+0", "\(run.stdout)")
        #expect(!events.contains { $0["event"] as? String == "version" }, "nothing reported a running version")
        #expect(events.contains { ($0["message"] as? String)?.contains("does not answer SMP on this port") == true },
                "\(run.stdout)")
        #expect(events.last?["ok"] as? Bool == true)

        // --expect-version cannot be checked when nothing answers: exit 8.
        let sim2 = try SerialSim(",baud=1000000,recovery,app-silent")
        let expecting = try DFURun.run(["flash", Self.image, "--device", "serial:\(sim2.path),baud=1000000,recovery",
                                        "--key", Self.key, "--connect-timeout", "5", "--expect-version", "1.1.0"],
                                       timeout: 90)
        #expect(expecting.exitCode == 8, "\(expecting.output)")
        #expect(expecting.stderr.contains("--expect-version 1.1.0 cannot be checked"), "\(expecting.stderr)")
        _ = sim.stop()
        _ = sim2.stop()
    }

    /// `--enter-recovery`: the running application resets with boot_mode 1 into the bootloader.
    @Test func theApplicationIsResetIntoRecoveryFirst() throws {
        let sim = try SerialSim(",baud=1000000,usb")
        #expect(sim.isReady, "\(sim.readyLine)")
        let device = "serial:\(sim.path),baud=1000000"
        let run = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key, "--enter-recovery",
                                  "--verbose"], timeout: 90)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("resetting") && run.stderr.contains("boot_mode 1"), "\(run.stderr)")
        #expect(run.stdout.contains("MCUboot lists 1.1.0+0 valid in its primary slot"), "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.stdout)")
        let ended = sim.stop()
        #expect(ended.stdoutLines.contains { $0.contains("it enters serial recovery") }, "\(ended.stdoutLines)")
    }
}
