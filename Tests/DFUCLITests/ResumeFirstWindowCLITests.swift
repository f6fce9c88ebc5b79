import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Found by the fault campaign's `kill-resume` (docs/faults.md, finding 9): a `dfu flash` killed
/// (SIGKILL) after the device took its first chunk but before the answer came back kept no
/// journal, as its journal was first written at the first acknowledgement, and `dfu resume` said
/// there was nothing to resume while the device held the run's upload session. The journal is now
/// written before the first byte leaves, and `dfu resume` carries that session on.
@Suite(.endToEnd) struct ResumeFirstWindowCLITests {
    @Test func aFlashKilledBeforeTheFirstAnswerIsFinishedByResume() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        // The device writes the first chunk; its answer is held back 3 s.
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--fault", "delay@0:3s"])
        let device = "udp:127.0.0.1:\(try #require(sim.ready(), "no ready line: \(sim.lines)").port)"
        let environment = ["XDG_STATE_HOME": state]

        let flash = try LiveDFUProcess(["flash", FlashCLITests.image, "--device", device, "--key", FlashCLITests.key, "--json"],
                                       environment: environment)
        var started = false
        while !started, let line = sim.nextLine(timeout: 30) { started = line.contains("upload started") }
        #expect(started, "the device never began the upload: \(sim.lines)")
        let killed = flash.stop(with: SIGKILL)
        #expect(!killed.exited)

        let resumed = try DFURun.run(["resume", "--json"], timeout: 60, environment: environment)
        let result = try FlashCLITests.object(try #require(resumed.stdoutLines.last))
        #expect(result["resumed"] as? Int == 1 && result["succeeded"] as? Int == 1, "\(resumed.output)")
        // It carried on the killed run's upload: the device began one upload session in all (the
        // sim prints a line per session it begins).
        while sim.nextLine(timeout: 1) != nil {}
        #expect(sim.lines.filter { $0.contains("upload started") }.count == 1, "\(sim.lines)")
        #expect(sim.stop().exitCode == 0)
    }
}
