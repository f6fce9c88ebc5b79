import Foundation
import Testing

/// `dfu batch` over serial ports, one port per device, as a fixture with a USB hub flashes several
/// boards at once: four `dfu sim --serve serial:…,usb` in parallel.
@Suite(.serialized, .endToEnd) struct SerialBatchCLITests {
    @Test func fourPortsAreFlashedInParallel() throws {
        let sims = try (1...4).map { _ in try SerialFlashCLITests.SerialSim(",baud=1000000,usb") }
        for sim in sims { #expect(sim.isReady, "\(sim.readyLine)") }
        let image = DFUBinary.repositoryRoot.appendingPathComponent(SerialFlashCLITests.image).path
        let plan = sims[0].folder.appendingPathComponent("plan.csv")
        let rows = sims.map { "\"serial:\($0.path),baud=1000000\",\(image)" }
        try (["device,image"] + rows).joined(separator: "\n").write(to: plan, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", plan.path, "--key", SerialFlashCLITests.key, "--parallel", "4"], timeout: 120)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.filter { $0.hasPrefix("OK ") }.count == 4, "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("dfu batch: 4 ok, 0 failed of 4") == true, "\(run.stdout)")
        for sim in sims { #expect(sim.stop().stdoutLines.contains { $0.contains("running 1.1.0+0") }) }
    }
}
