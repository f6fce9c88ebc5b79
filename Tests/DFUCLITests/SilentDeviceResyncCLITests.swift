import Foundation
import Testing

/// Over UDP, or a UART whose port stays, a device that falls silent mid-upload gives no sign but
/// silence: dfu re-synchronises (an echo, then the upload's resume packet) within --connect-timeout
/// and finishes, where it used to resend one chunk five times and exit 6.
@Suite(.endToEnd) struct SilentDeviceResyncCLITests {
    static let image = FlashCLITests.image
    static let key = FlashCLITests.key

    func flash(against faults: [String], extra: [String] = []) throws -> (DFURun, LiveDFUProcess) {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"] + faults.flatMap { ["--fault", $0] })
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let run = try DFURun.run(["flash", Self.image, "--device", "udp:127.0.0.1:\(ready.port)", "--key", Self.key,
                                  "--verbose", "--chunk-timeout", "1"] + extra, timeout: 120)
        return (run, sim)
    }

    /// The device hears nothing after 40 % until the upload's resume packet, then goes on.
    @Test func aDeviceSilentUntilTheResumePacketIsFinished() throws {
        let (run, sim) = try flash(against: ["silent@40%"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.output)")
        #expect(sim.stop().exitCode == 0)
    }

    /// An outage of 4 s after 40 %, which heals by itself.
    @Test func anOutageThatHealsIsRidden() throws {
        let (run, sim) = try flash(against: ["outage@40%:4s"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(sim.stop().exitCode == 0)
    }

    /// A device that never answers again: exit 6 once --connect-timeout has passed, resumable.
    @Test func aDeviceThatStaysSilentIsGivenUpOnAfterTheConnectTimeout() throws {
        let (run, sim) = try flash(against: ["outage@40%:600s"], extra: ["--connect-timeout", "4"])
        #expect(run.exitCode == 6, "\(run.output)")
        #expect(run.stderr.contains("answered neither an echo nor the upload's resume packet within 4"), "\(run.stderr)")
        _ = sim.stop()
    }

    /// The same over a serial line (a UART: the port stays while the device is deaf).
    @Test func aSilentDeviceOnAUARTIsFinished() throws {
        let sim = try SerialFlashCLITests.SerialSim(",baud=1000000", device: ["--fault", "silent@40%"])
        #expect(sim.isReady, "\(sim.readyLine)")
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:\(sim.path),baud=1000000", "--key", Self.key,
                                  "--chunk-timeout", "1"], timeout: 120)
        #expect(run.exitCode == 0, "\(run.output)")
        let ended = sim.stop()
        #expect(ended.stdoutLines.contains { $0.contains("fault injected: silent@40%") }, "\(ended.stdoutLines)")
    }
}
