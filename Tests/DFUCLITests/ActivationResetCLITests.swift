import Foundation
import Testing

/// A device that resets by itself as it takes the mark, over UDP, which cannot report the reset:
/// the mark's answer never comes, and when dfu sends the mark again the device already runs the
/// new image on test and refuses it (Zephyr's IMAGE_SETTING_TEST_TO_ACTIVE_DENIED). dfu used to end
/// there with exit 7 and the device on an unconfirmed image; it now reads the image list, finds the
/// image running and confirms it (docs/faults.md, finding 7). The memory link's cases are
/// `EngineActivationResetTests`.
@Suite(.endToEnd) struct ActivationResetCLITests {
    @Test func aDeviceThatRestartsAsItTakesTheMarkOverUDPIsConfirmed() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--fault", "reboot@request:state-write"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let run = try DFURun.run(["flash", FlashCLITests.image, "--device", "udp:127.0.0.1:\(ready.port)",
                                  "--key", FlashCLITests.key, "--verbose"], timeout: 90)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("restarted by itself after it took the mark"), "\(run.stderr)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.output)")
        #expect(sim.stop().exitCode == 0)
    }
}
