import Foundation
import Testing

/// `dfu sim --serve serial:PATH,recovery[,app-silent]`: the virtual device powered up in MCUboot's
/// serial recovery on a pseudo-terminal, and the options it refuses.
@Suite(.serialized, .endToEnd) struct SimSerialRecoveryCLITests {
    typealias SerialSim = SerialFlashCLITests.SerialSim

    @Test func servesInRecoveryAndSaysSo() throws {
        let sim = try SerialSim(",baud=1000000,recovery,app-silent")
        #expect(sim.isReady, "\(sim.readyLine)")
        #expect(sim.readyLine.contains("console framing, MCUboot serial recovery, application silent)"), "\(sim.readyLine)")
        let ended = sim.stop()
        #expect(ended.exitCode == 0)
        #expect(ended.stdoutLines.last?.hasSuffix("running MCUboot serial recovery (1.0.0+0 in the primary slot)") == true,
                "\(ended.stdoutLines)")
    }

    @Test func recoveryIsForTheSMPDeviceInASwapMode() throws {
        let path = "/tmp/dfu-recovery-\(getpid())"
        let nordic = try DFURun.run(["sim", "--serve", "serial:\(path),recovery", "--protocol", "nordic"], timeout: 30)
        #expect(nordic.exitCode == 2, "\(nordic.output)")
        #expect(nordic.stderr.contains("recovery and app-silent apply to the SMP device"), "\(nordic.stderr)")
        let directXIP = try DFURun.run(["sim", "--serve", "serial:\(path),recovery", "--bootloader", "direct-xip"], timeout: 30)
        #expect(directXIP.exitCode == 2, "\(directXIP.output)")
        #expect(directXIP.stderr.contains("swap or overwrite-only mode"), "\(directXIP.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was linked")
    }
}
