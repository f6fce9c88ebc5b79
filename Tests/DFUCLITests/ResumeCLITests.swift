import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `dfu resume` after `dfu flash` was stopped, against `dfu sim --serve udp:` (the device outlives
/// the process, as a real one does): killed with SIGKILL or stopped with SIGINT at points all
/// along the update, the journal says which update it was and `dfu resume` finishes it: the device
/// ends running the new image, confirmed, every time. Stopped before the device took a byte, there
/// is nothing to finish, and no journal says otherwise.
@Suite(.endToEnd) struct ResumeCLITests {
    /// Where `dfu flash --json` is stopped: the first stdout line that matches.
    enum StopPoint: String, CaseIterable, CustomTestStringConvertible {
        case connected, transferStart = "transfer-5%", transferMiddle = "transfer-50%",
             transferEnd = "transfer-95%", activated, rebooting, reconnect

        func matches(_ event: [String: Any]) -> Bool {
            let name = event["event"] as? String
            func progress(atLeast share: Double) -> Bool {
                guard name == "progress", let bytes = event["bytes"] as? Int, let total = event["total"] as? Int else { return false }
                return Double(bytes) >= share * Double(total)
            }
            switch self {
            case .connected: return name == "connected"
            case .transferStart: return progress(atLeast: 0.05)
            case .transferMiddle: return progress(atLeast: 0.5)
            case .transferEnd: return progress(atLeast: 0.95)
            case .activated: return name == "activated"
            case .rebooting: return name == "rebooting"
            case .reconnect: return name == "stage" && event["stage"] as? String == "reconnect"
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: StopPoint.allCases)
    func killedFlashIsFinishedByResume(at point: StopPoint) throws {
        try Self.stopThenResume(at: point, signal: SIGKILL)
    }

    @Test(arguments: [StopPoint.connected, .transferMiddle, .rebooting])
    func interruptedFlashExits130WithTheHintAndIsFinishedByResume(at point: StopPoint) throws {
        try Self.stopThenResume(at: point, signal: SIGINT)
    }

    /// A file that changed after the update started is refused (exit 3) and the journal kept, so
    /// the update can still be resumed with the right file or started over.
    @Test func aChangedFileIsRefusedAndTheJournalKept() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let copy = state + "/app.signed.bin"
        try FileManager.default.copyItem(atPath: DFUBinary.repositoryRoot.path + "/" + FlashCLITests.image, toPath: copy)
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let device = "udp:127.0.0.1:\(try #require(sim.ready()).port)"
        _ = try Self.flash(copy, device: device, state: state, stoppedAt: .transferMiddle, with: SIGKILL)

        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        let refused = try DFURun.run(["resume", "--json"], timeout: 60, environment: ["XDG_STATE_HOME": state])
        #expect(refused.exitCode == 3, "\(refused.output)")
        let lines = try refused.stdoutLines.map(FlashCLITests.object)
        let update = try #require(lines.first { $0["event"] as? String == "update-result" }, "\(refused.stdout)")
        #expect((update["error"] as? String)?.contains("changed since the update started") == true, "\(update)")
        #expect(lines.last?["event"] as? String == "result" && lines.last?["exit_code"] as? Int == 3, "\(refused.stdout)")
        let list = try DFURun.run(["resume", "--list", "--json"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(list.stdoutLines.count == 2, "the journal is kept: \(list.stdout)")

        let forgot = try DFURun.run(["resume", "--forget", "--device", device], timeout: 30,
                                    environment: ["XDG_STATE_HOME": state])
        #expect(forgot.exitCode == 0 && forgot.stdout.contains("forgot the unfinished update"), "\(forgot.output)")
        let none = try DFURun.run(["resume"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(none.exitCode == 0 && none.stdout == "nothing to resume\n", "\(none.output)")
        #expect(sim.stop().exitCode == 0)
    }

    /// A run that ended before the device took a byte of the update is no unfinished update: one
    /// that could not connect, one whose precondition failed, one whose image the device refused at
    /// its first packet.
    @Test func aRunThatEndedBeforeTheDeviceTookAByteIsNotUnfinished() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        let image = FlashCLITests.image, key = FlashCLITests.key
        let runs: [([String], Int32)] = [
            (["--device", "udp:127.0.0.1:\(try FlashCLITests.closedUDPPort())", "--connect-timeout", "2"], 5),
            (["--device", "sim:timescale=0,battery=10"], 4),
            (["--device", "sim:timescale=0,version=1.2.0", "--require-newer"], 7),
        ]
        for (arguments, exitCode) in runs {
            let run = try DFURun.run(["flash", image, "--key", key] + arguments, timeout: 30, environment: environment)
            #expect(run.exitCode == exitCode, "\(arguments): \(run.output)")
        }
        let list = try DFURun.run(["resume", "--list"], timeout: 30, environment: environment)
        #expect(list.stdout == "no unfinished updates\n", "\(list.output)")
        let resumed = try DFURun.run(["resume"], timeout: 30, environment: environment)
        #expect(resumed.exitCode == 0 && resumed.stdout == "nothing to resume\n", "\(resumed.output)")
    }

    /// Two updates cut off mid-upload; one device is still there, the other gone. `dfu resume` runs
    /// both and ends with one line saying how each ended (the exit status the worse of the two).
    /// The resumed upload reports what it sent, not the whole image, with times and a rate that add up.
    @Test func resumeEndsWithOneLineSayingHowEachEndedAndCountsOnlyWhatItSent() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        let kept = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let gone = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let keptDevice = "udp:127.0.0.1:\(try #require(kept.ready()).port)"
        let goneDevice = "udp:127.0.0.1:\(try #require(gone.ready()).port)"
        for device in [keptDevice, goneDevice] {
            _ = try Self.flash(FlashCLITests.image, device: device, state: state, stoppedAt: .transferMiddle, with: SIGKILL)
        }
        #expect(gone.stop().exitCode == 0)

        let resumed = try DFURun.run(["resume", "--connect-timeout", "2"], timeout: 90, environment: environment)
        #expect(resumed.exitCode == 5, "\(resumed.output)")
        let each = [keptDevice, goneDevice].sorted().map { $0 == keptDevice ? "\($0) ok (1.1.0+0)" : "\($0) exit 5" }
        #expect(resumed.stdoutLines.last == "dfu resume: 1 ok, 1 failed of 2: " + each.joined(separator: ", ") + "; exit 5",
                "\(resumed.output)")
        #expect(resumed.stdoutLines.filter { $0.hasPrefix("dfu resume:") }.count == 1)

        // uploaded 24.9 kB in 0.28 s, resumed at 24.9 kB: first reply after 0.01 s, then 24.9 kB in 0.27 s, 93.1 kB/s
        let line = try #require(resumed.stdoutLines.first { $0.hasPrefix("uploaded ") }, "\(resumed.stdout)")
        let texts = line.split(whereSeparator: { !($0.isNumber || $0 == ".") }).filter { Double($0) != nil }
        let numbers = texts.compactMap { Double($0) }
        try #require(numbers.count == 7 && line.contains(" kB in ") && line.contains(", resumed at "), "\(line)")
        let (sent, total, held, wait, after, rest, rate) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4],
                                                            numbers[5], numbers[6])
        // Half a unit of the last digit shown: times are shown with fewer decimals once they pass a second.
        func halfUnit(_ index: Int) -> Double {
            let decimals = texts[index].split(separator: ".").dropFirst().first?.count ?? 0
            return 0.5 * pow(10, -Double(decimals))
        }
        #expect(sent < 49.8 && abs(sent + held - 49.8) <= 0.15, "only what this run sent: \(line)")
        #expect(abs(wait + rest - total) < 0.001, "\(line)")
        // Each shown number is rounded: the rate lies within what they allow.
        let lowest = (after - halfUnit(4)) / (rest + halfUnit(5))
        let highest = (after + halfUnit(4)) / max(rest - halfUnit(5), 0.001)
        #expect(after <= sent + 0.05 && rate >= lowest - 0.05 && rate <= highest + 0.05,
                "the rate is the bytes after the first reply over the time after it: \(line)")
        #expect(kept.stop().exitCode == 0)
    }

    /// A journal file that is not one (truncated, foreign, edited) is moved aside with a warning;
    /// the others are still listed and nothing crashes.
    @Test func aCorruptJournalIsSetAsideNotTrusted() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let directory = state + "/dfu"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("{\"format\":\"dfu-journal/1\",\"device\":".utf8).write(to: URL(fileURLWithPath: directory + "/a.json"))
        try Data("{\"format\":\"other/9\"}".utf8).write(to: URL(fileURLWithPath: directory + "/b.json"))

        let run = try DFURun.run(["resume", "--list"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout == "no unfinished updates\n")
        #expect(run.stderr.components(separatedBy: "cannot be used").count == 3, "\(run.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left.count == 2 && left.allSatisfy { $0.contains(".json.set-aside-") }, "\(left)")
    }

    /// `dfu flash --json` against a fresh UDP sim, stopped at `point` with `signal`, then
    /// `dfu resume`; the device must end running 1.1.0, confirmed. Interrupted (SIGINT) once
    /// connected, before the device answered the first chunk (held back 3 s), the run removes the
    /// journal it wrote ahead: there is nothing to resume. Killed there (SIGKILL), the journal
    /// written ahead stays, and `dfu resume` finishes the update.
    private static func stopThenResume(at point: StopPoint, signal: Int32) throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"] + (point == .connected ? ["--fault", "delay@0:3s"] : []))
        let device = "udp:127.0.0.1:\(try #require(sim.ready(), "no ready line: \(sim.lines)").port)"
        let environment = ["XDG_STATE_HOME": state]

        let stopped = try flash(FlashCLITests.image, device: device, state: state, stoppedAt: point, with: signal)
        if point == .connected && signal == SIGINT {
            #expect(stopped.exitCode == 130 && stopped.stderr.contains(
                "dfu: interrupted; the device had taken none of the update: run the same command again"), "\(stopped.stderr)")
            let list = try DFURun.run(["resume", "--list", "--json"], timeout: 30, environment: environment)
            #expect(list.stdoutLines.count == 1 && list.stdout.contains(#""unfinished":0"#), "\(list.output)")
            let resumed = try DFURun.run(["resume"], timeout: 30, environment: environment)
            #expect(resumed.exitCode == 0 && resumed.stdout == "nothing to resume\n", "\(resumed.output)")
            #expect(sim.stop().exitCode == 0)
            return
        }
        if signal == SIGINT {
            #expect(stopped.exited && stopped.exitCode == 130, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("dfu: interrupted; 'dfu resume --device \(device)' finishes the update"),
                    "\(stopped.stderr)")
        } else {
            #expect(!stopped.exited, "dfu was to die from SIGKILL")
        }

        let list = try DFURun.run(["resume", "--list", "--json"], timeout: 30, environment: environment)
        let unfinished = try list.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "unfinished" }
        #expect(unfinished.count == 1 && unfinished.first?["device"] as? String == device, "\(list.output)")

        let resumed = try DFURun.run(["resume"], timeout: 90, environment: environment)
        #expect(resumed.exitCode == 0, "\(resumed.output)")
        #expect(resumed.stdout.hasPrefix("resuming \(device): blinky-ecdsa-p256-1.1.0.signed.bin, stopped in "),
                "\(resumed.stdout)")
        #expect(resumed.stdoutLines.suffix(2).first?.hasPrefix("OK: 1.1.0+0 is running and confirmed on \(device)") == true,
                "\(resumed.output)")
        #expect(resumed.stdoutLines.last == "dfu resume: 1 ok of 1: \(device) ok (1.1.0+0)", "\(resumed.output)")

        let info = try DFURun.run(["info", "--device", device, "--json"], timeout: 30)
        let slots = try FlashCLITests.object(try #require(info.stdoutLines.first))["slots"] as? [[String: Any]] ?? []
        let primary = slots.first { $0["image"] as? Int == 0 && $0["slot"] as? Int == 0 }
        #expect(primary?["version"] as? String == "1.1.0+0" && primary?["confirmed"] as? Bool == true
                && primary?["active"] as? Bool == true, "\(info.stdout)")
        let after = try DFURun.run(["resume", "--list"], timeout: 30, environment: environment)
        #expect(after.stdout == "no unfinished updates\n", "\(after.output)")
        #expect(sim.stop().exitCode == 0)
    }

    /// Runs `dfu flash FILE --json` and sends `signal` on the first line that matches `point`.
    static func flash(_ image: String, device: String, state: String, stoppedAt point: StopPoint,
                              with signal: Int32) throws -> LiveDFUProcess.Ended {
        let flash = try LiveDFUProcess(["flash", image, "--device", device, "--key", FlashCLITests.key, "--json"],
                                       environment: ["XDG_STATE_HOME": state])
        while let line = flash.nextLine(timeout: 30) {
            if point.matches(try FlashCLITests.object(line)) {
                kill(flash.process.processIdentifier, signal)
                break
            }
        }
        return flash.waitForExit(timeout: 30)
    }
}
