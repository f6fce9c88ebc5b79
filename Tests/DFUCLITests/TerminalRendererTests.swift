// These tests call the renderers and parsers of the `dfu` executable target in-process, which needs
// `"dfu"` among DFUCLITests' dependencies in Package.swift and the DFU_CLI_UNIT_TESTS condition
// (`swiftSettings: [.define("DFU_CLI_UNIT_TESTS")]`). Until both are there, this file compiles to
// nothing, so the binary-driven tests beside it keep building.
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import DFUCore
import Testing

/// The human view of `dfu flash`, fed scripted engine events (RenderTestSupport.swift).
@Suite struct TerminalRendererTests {
    /// The whole run as a log file or a CI job sees it: a snapshot, since these lines are the product.
    @Test func fullFlashToAPipeReadsStepByStepWithAPlainLinePerTenPercent() {
        var renderer = Fixture.terminal(isTerminal: false)
        let status = ScriptedRun.fullFlash.play(into: &renderer)
        #expect(status == .success)
        #expect(renderer.sink.stdoutLines == [
            "image checked: app.signed.bin 1.1.0+0, 49.2 kB, ECDSA P-256 signature ok",
            "connected: …:EE:FF, MTU 498, 2M PHY, interval 7.5 ms, window 3",
            "battery 80 % ≥ 30 %",
            "version 1.0.0+0 → 1.1.0+0",
            "uploading 49.2 kB",
            "uploading: 10 % (5.1/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 20 % (10.2/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 31 % (15.4/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 41 % (20.5/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 50 % (24.6/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 60 % (29.7/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 70 % (34.8/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 81 % (39.9/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 91 % (45.1/49.2 kB, 51.2 kB/s, 85 % of ceiling, ETA 0:01)",
            "uploading: 100 % (49.2/49.2 kB, 51.2 kB/s, 85 % of ceiling)",
            "uploaded 49.2 kB in 2.14 s: first reply after 1.20 s (erase), then 48.1 kB in 0.94 s, 51.2 kB/s (85 % of ceiling)",
            "marked for test",
            "rebooting",
            "reconnected",
            "device reports 1.1.0+0, active",
            "confirmed",
            "OK: 1.1.0+0 is running and confirmed on …:EE:FF (update took 5.40 s)",
        ])
        #expect(renderer.sink.stderr.isEmpty)
    }

    @Test func outputThatIsNotATerminalNeverContainsACarriageReturn() {
        for run in [ScriptedRun.fullFlash, .interruptedTransfer, .rollback, .preconditionFailure] {
            var renderer = Fixture.terminal(isTerminal: false, verbose: true)
            _ = run.play(into: &renderer)
            #expect(!renderer.sink.stdout.contains("\r"))
            #expect(!renderer.sink.stderr.contains("\r"))
        }
    }

    /// On a terminal the bar is redrawn in place and then replaced by the summary line, so the
    /// screen ends up with the same steps as a log, minus the per-10 % lines.
    @Test func terminalShowsABarRedrawnInPlaceThatTheSummaryReplaces() {
        var renderer = Fixture.terminal(isTerminal: true)
        _ = ScriptedRun.fullFlash.play(into: &renderer)
        let draws = renderer.sink.chunks.filter { $0.text.hasPrefix("\r[") }
        #expect(!draws.isEmpty)
        #expect(draws.allSatisfy { !$0.text.contains("\n") && $0.stream == .standardOutput })
        #expect(draws.allSatisfy { $0.text.count <= 80 }, "a bar wider than 80 columns wraps and breaks \\r")
        #expect(draws.last?.text.contains("100 %  49.2/49.2 kB  51.2 kB/s  85 % of ceiling") == true)
        #expect(draws.first?.text.contains("ETA 0:01") == true)
        #expect(renderer.sink.screen == [
            "image checked: app.signed.bin 1.1.0+0, 49.2 kB, ECDSA P-256 signature ok",
            "connected: …:EE:FF, MTU 498, 2M PHY, interval 7.5 ms, window 3",
            "battery 80 % ≥ 30 %",
            "version 1.0.0+0 → 1.1.0+0",
            "uploading 49.2 kB",
            "uploaded 49.2 kB in 2.14 s: first reply after 1.20 s (erase), then 48.1 kB in 0.94 s, 51.2 kB/s (85 % of ceiling)",
            "marked for test",
            "rebooting… 2 s",
            "reconnected",
            "device reports 1.1.0+0, active",
            "confirmed",
            "OK: 1.1.0+0 is running and confirmed on …:EE:FF (update took 5.40 s)",
        ])
    }

    /// 48 progress events 20 ms apart (0.94 s): at most one redraw per 100 ms, plus the last.
    @Test func terminalRedrawsAtMostTenTimesASecondAndAlwaysShowsTheEnd() {
        var renderer = Fixture.terminal(isTerminal: true)
        _ = ScriptedRun.fullFlash.play(into: &renderer)
        let draws = renderer.sink.chunks.filter { $0.text.hasPrefix("\r[") }
        #expect(draws.count >= 9 && draws.count <= 11, "\(draws.count) redraws")
        #expect(draws.last?.text.contains("100 %") == true)
    }

    /// A warning in the middle of the upload: the bar is blanked, the warning printed on its own
    /// row, and the bar drawn again below it.
    @Test func warningDuringUploadClearsTheBarAndRedrawsIt() throws {
        var run = ScriptedRun.fullFlash
        let index = try #require(run.steps.firstIndex { if case .progress(let p) = $0.event { p.acknowledged == 10240 } else { false } })
        run.steps.insert((run.steps[index].at, .warning("notification arrived late")), at: index + 1)
        var renderer = Fixture.terminal(isTerminal: true)
        _ = run.play(into: &renderer)
        let chunks = renderer.sink.chunks
        let warning = try #require(chunks.firstIndex { $0.text == "warning: notification arrived late\n" })
        #expect(chunks[warning].stream == .standardError)
        #expect(chunks[warning - 1].text.allSatisfy { $0 == "\r" || $0 == " " }, "bar blanked first")
        #expect(chunks[warning + 1].text.hasPrefix("\r["), "bar drawn again after")
    }

    @Test func verboseAddsStageTimingsAndEngineLogsOnStderr() {
        var run = ScriptedRun.fullFlash
        run.steps.insert((.milliseconds(900), .log("MCUmgr parameters: buf_size 2475, buf_count 4")), at: 8)
        var renderer = Fixture.terminal(isTerminal: false, verbose: true)
        _ = run.play(into: &renderer)
        let stderr = renderer.sink.stderrLines
        #expect(stderr.contains("dfu: MCUmgr parameters: buf_size 2475, buf_count 4"))
        #expect(stderr.contains("dfu: link: writes of up to 495 bytes, ceiling 60.0 kB/s"))
        #expect(stderr.contains { $0.hasPrefix("dfu: device: running 1.0.0+0, battery 80 %") })
        let timings = Array(stderr.drop { $0 != "dfu: stage timings:" })
        #expect(timings == [
            "dfu: stage timings:",
            "dfu:   image check        0.01 s",
            "dfu:   connect            0.84 s",
            "dfu:   discovery          0.21 s",
            "dfu:   preconditions      0.00 s",
            "dfu:   transfer           2.14 s, of which first reply 1.20 s",
            "dfu:   activate           0.04 s",
            "dfu:   reboot, reconnect  2.05 s",
            "dfu:   version check      0.11 s",
        ])
        // stdout is the same as without --verbose.
        var quiet = Fixture.terminal(isTerminal: false)
        _ = run.play(into: &quiet)
        #expect(renderer.sink.stdout == quiet.sink.stdout)
        #expect(quiet.sink.stderr.isEmpty)
    }

    /// Battery too low: the error on stderr with exit 4, and nothing that suggests an upload began.
    @Test func preconditionFailureIsAnErrorWithExitFourAndNoUpload() {
        var renderer = Fixture.terminal(isTerminal: true)
        let status = ScriptedRun.preconditionFailure.play(into: &renderer)
        #expect(status == .preconditionNotMet)
        #expect(status.rawValue == 4)
        #expect(renderer.sink.stderrLines == [
            "dfu: error: device battery is at 15 %, below the required 30 %. Charge the device, or lower the limit with --min-battery.",
        ])
        #expect(!renderer.sink.stdout.contains("upload"))
        #expect(!renderer.sink.stdout.contains("OK"))
    }

    /// The link is lost for good at 41 %: the screen keeps where it stopped, then the error (exit 6).
    @Test func interruptedTransferSaysWhereItStoppedThenTheError() {
        for isTerminal in [true, false] {
            var renderer = Fixture.terminal(isTerminal: isTerminal)
            let status = ScriptedRun.interruptedTransfer.play(into: &renderer)
            #expect(status == .transferInterrupted)
            #expect(renderer.sink.screen.last == "upload stopped at 41 % (20.5/49.2 kB)")
            #expect(renderer.sink.stderrLines == [
                "warning: link lost at 20480 bytes; reconnecting",
                "dfu: error: the link to the device was lost after 3 attempts to reconnect. Run the same command again to resume.",
            ])
            #expect(!renderer.sink.stdout.contains("uploaded"))
        }
    }

    /// The device came back with its old image: no "confirmed", no OK, the error with exit 8.
    @Test func rollbackEndsWithThePostRebootErrorAndExitEight() {
        var renderer = Fixture.terminal(isTerminal: false)
        let status = ScriptedRun.rollback.play(into: &renderer)
        #expect(status == .postRebootCheckFailed)
        #expect(status.rawValue == 8)
        #expect(renderer.sink.stdoutLines.suffix(3) == ["marked for test", "rebooting", "reconnected"])
        #expect(!renderer.sink.stdout.contains("confirmed"))
        #expect(renderer.sink.stderrLines.last?.hasPrefix("dfu: error: the device runs 1.0.0+0 after the reboot: it rolled back") == true)
    }

    @Test func resumeAfterLinkLossIsALineWithTheDeviceOffset() throws {
        var run = ScriptedRun.fullFlash
        let index = try #require(run.steps.firstIndex { if case .progress(let p) = $0.event { p.acknowledged == 20480 } else { false } })
        run.steps.insert((run.steps[index].at, .resumed(offset: 19456, attempt: 2)), at: index + 1)
        var renderer = Fixture.terminal(isTerminal: false)
        #expect(run.play(into: &renderer) == .success)
        #expect(renderer.sink.stdoutLines.contains("link lost; reconnected (attempt 2), resuming at 19.5/49.2 kB"))
    }

    /// The engine may report a missing check both in the verdict and as a warning event.
    @Test func aWarningIsShownOnceOnStderr() {
        var run = ScriptedRun.upToTransfer()
        let verdict = Preconditions.check(imageVersion: Fixture.newVersion, imageSize: 1000,
                                          device: DeviceFacts(), host: .mains, options: UpdateOptions())
        run.add(.preconditionsPassed(verdict), at: 1056)
        run.add(.warning("device has no Battery Service; battery level not checked"), at: 1057)
        var renderer = Fixture.terminal(isTerminal: false)
        _ = run.play(into: &renderer)
        #expect(renderer.sink.stderrLines.filter { $0.contains("Battery Service") }
                    == ["warning: device has no Battery Service; battery level not checked"])
    }

    /// Text that came from the device cannot drive the terminal or fake a line of dfu's own.
    @Test func controlCharactersFromTheDeviceAreShownEscaped() {
        var run = ScriptedRun.upToTransfer()
        run.add(.warning("bad reply \u{1B}]0;pwned\u{07}\nOK: fake"), at: 1060)
        var facts = Fixture.facts(battery: 80)
        facts.firmwareRevision = "1.0\u{1B}[2J"
        run.add(.deviceState(facts), at: 1061)
        run.result = .failure(.deviceRejected("device said \u{9B}31m no"))
        var renderer = Fixture.terminal(isTerminal: true, verbose: true)
        _ = run.play(into: &renderer)
        let all = renderer.sink.stdout + renderer.sink.stderr
        #expect(!all.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
        #expect(renderer.sink.stderrLines.contains("warning: bad reply \\u{1b}]0;pwned\\u{7}\\u{a}OK: fake"))
        #expect(renderer.sink.stderrLines.contains { $0.contains("firmware revision '1.0\\u{1b}[2J'") })
        #expect(renderer.sink.stderrLines.last == "dfu: error: device said \\u{9b}31m no")
    }

    @Test func withoutAKeyTheImageLineSaysTheSignatureWasNotChecked() {
        var renderer = Fixture.terminal(isTerminal: false)
        var image = Fixture.image
        image.signatureChecked = nil
        renderer.render(.imageChecked(image), at: .now)
        #expect(renderer.sink.stdoutLines == ["image checked: app.signed.bin 1.1.0+0, 49.2 kB, SHA-256 ok, signature not checked (no --key)"])
    }

    @Test func otherModesEndWithTheirOwnOKLine() {
        var testOnly = ScriptedRun.fullFlash
        testOnly.steps = testOnly.steps.map { step in
            if case .versionConfirmed(let version, _, _) = step.event {
                return (step.at, .versionConfirmed(version: version, confirmed: false))
            }
            return step
        }
        var renderer = Fixture.terminal(isTerminal: false)
        _ = testOnly.play(into: &renderer)
        #expect(renderer.sink.stdoutLines.suffix(2) == [
            "not confirmed: the device goes back to its previous image on the next reset",
            "OK: 1.1.0+0 is running on …:EE:FF, not confirmed (update took 5.40 s)",
        ])

        var uploadOnly = ScriptedRun.upToTransfer()
        uploadOnly.add(.stageStarted(.transfer), at: 1100)
        uploadOnly.add(.progress(TransferProgress(acknowledged: 49152, total: 49152, elapsed: .seconds(2), rate: 40_000)), at: 3100)
        uploadOnly.add(.stageFinished(.transfer, duration: .seconds(2)), at: 3100)
        uploadOnly.add(.activated(.uploadOnly), at: 3101)
        var second = Fixture.terminal(isTerminal: false)
        _ = uploadOnly.play(into: &second)
        #expect(second.sink.stdoutLines.suffix(2) == [
            "upload only: the device keeps running its current image",
            "OK: 1.1.0+0 is uploaded to …:EE:FF, not activated (update took 3.10 s)",
        ])
    }
}
#endif
