import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `dfu resume` after `dfu flash` was stopped, against `dfu sim --serve udp:` (the device outlives
/// the process, as a real one does): killed with SIGKILL or stopped with SIGINT at points all
/// along the update, the journal says which update it was and `dfu resume` finishes it: the device
/// ends running the new image, confirmed, every time.
@Suite(.timeLimit(.minutes(3))) struct ResumeCLITests {
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

    @Test(arguments: [StopPoint.transferMiddle, .rebooting])
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
        let result = try FlashCLITests.object(try #require(refused.stdoutLines.last))
        #expect((result["error"] as? String)?.contains("changed since the update started") == true, "\(result)")
        let list = try DFURun.run(["resume", "--list", "--json"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(list.stdoutLines.count == 2, "the journal is kept: \(list.stdout)")

        let forgot = try DFURun.run(["resume", "--forget", "--device", device], timeout: 30,
                                    environment: ["XDG_STATE_HOME": state])
        #expect(forgot.exitCode == 0 && forgot.stdout.contains("forgot the unfinished update"), "\(forgot.output)")
        let none = try DFURun.run(["resume"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(none.exitCode == 0 && none.stdout == "nothing to resume\n", "\(none.output)")
        #expect(sim.stop().exitCode == 0)
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
    /// `dfu resume`; the device must end running 1.1.0, confirmed.
    private static func stopThenResume(at point: StopPoint, signal: Int32) throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let device = "udp:127.0.0.1:\(try #require(sim.ready(), "no ready line: \(sim.lines)").port)"
        let environment = ["XDG_STATE_HOME": state]

        let stopped = try flash(FlashCLITests.image, device: device, state: state, stoppedAt: point, with: signal)
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
        #expect(resumed.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on \(device)") == true,
                "\(resumed.output)")

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
    private static func flash(_ image: String, device: String, state: String, stoppedAt point: StopPoint,
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
