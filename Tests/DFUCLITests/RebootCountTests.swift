import Foundation
import Testing
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import DFUCore
#endif

/// While the device reboots, a terminal shows it and counts the seconds (`rebooting… 3 s`); a log
/// file keeps its one `rebooting` line.
@Suite struct RebootCountTests {
    #if DFU_CLI_UNIT_TESTS
    /// Ticks redraw the count in place when a whole second has passed; the device back, the last
    /// count stays on its row and `reconnected` follows.
    @Test func aTerminalCountsTheSecondsOfTheRebootInPlace() {
        var renderer = Fixture.terminal(isTerminal: true)
        let start = ContinuousClock.now
        renderer.render(.activated(.testConfirm), at: start)
        renderer.render(.rebooting, at: start)
        for tenths in stride(from: 2, through: 34, by: 2) {
            renderer.tick(at: start + .milliseconds(100 * tenths))
        }
        renderer.render(.reconnected(Fixture.connection), at: start + .milliseconds(3500))
        #expect(renderer.sink.screen == ["marked for test", "rebooting… 3 s", "reconnected"])
        // Each whole second drawn once, in place.
        #expect(renderer.sink.stdout.contains("\rrebooting… 0 s\rrebooting… 1 s\rrebooting… 2 s\rrebooting… 3 s\n"),
                "\(renderer.sink.stdout.debugDescription)")
    }

    /// A log line during the reboot passes above the count, which is drawn again under it.
    @Test func aLogLineDuringTheRebootLeavesTheCountWhole() {
        var renderer = Fixture.terminal(isTerminal: true, verbose: true)
        let start = ContinuousClock.now
        renderer.render(.rebooting, at: start)
        renderer.tick(at: start + .milliseconds(1100))
        renderer.render(.log("link dropped for the reboot"), at: start + .milliseconds(1200))
        renderer.tick(at: start + .milliseconds(2100))
        renderer.render(.reconnected(Fixture.connection), at: start + .milliseconds(2500))
        #expect(renderer.sink.screen == ["rebooting… 2 s", "reconnected"])
        #expect(renderer.sink.stderrLines == ["dfu: link dropped for the reboot"])
    }

    @Test func aLogFileKeepsOneLineAndTicksChangeNothing() {
        var renderer = Fixture.terminal(isTerminal: false)
        let start = ContinuousClock.now
        renderer.render(.rebooting, at: start)
        renderer.tick(at: start + .seconds(2))
        renderer.render(.reconnected(Fixture.connection), at: start + .seconds(3))
        #expect(renderer.sink.stdout == "rebooting\nreconnected\n")
    }
    #endif

    /// The same through the binary on a pseudo-terminal: `dfu flash` on the virtual device (its
    /// swap takes seconds in real time) and `dfu reset --wait` on one that resets 2.5 s after
    /// answering.
    @Test(.enabled(if: TerminalDFUProcess.scriptPath != nil, "util-linux script is not installed"),
          .endToEnd,
          arguments: [
            (["flash", FlashCLITests.image, "--device", "sim", "--key", FlashCLITests.key], "rebooting… 3 s"),
            (["reset", "--wait", "--device", "sim:reset_ms=2500"], "rebooting… 2 s"),
          ] as [([String], String)])
    func theBinaryCountsTheRebootOnATerminal(arguments: [String], count: String) async throws {
        let dfu = try TerminalDFUProcess(arguments, bus: "unix:path=/nonexistent", stdoutOnTerminal: true)
        try dfu.start()
        let (run, screen) = try await dfu.finish()
        #expect(run.exitCode == 0, "\(run.stderr)\n\(screen)")
        #expect(screen.contains("\r" + count), "\(screen.debugDescription)")
        #expect(screen.contains("rebooting… 1 s"))
    }
}
