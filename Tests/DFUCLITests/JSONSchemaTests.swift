import BlueZStandIn
import DFUCore
import DeviceSim
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every `--json` line of every command, on its success and failure paths, against
/// `docs/json-events.schema.json`: each line must be exactly one of its definitions, start with
/// `"event"` and `"schema":2`, and the run must end with the command's `result` line. Unpaced
/// virtual devices (`timescale=0`), a closed UDP port, and private buses keep it fast and offline.
@Suite(.serialized, .endToEnd) struct JSONSchemaTests {
    static let image = FlashCLITests.image
    static let key = FlashCLITests.key

    // MARK: - verify

    @Test(arguments: [
        (["firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin", "--key", key], 0),
        (["firmware-samples/images/blinky-lzma2-ed25519-1.1.0.signed.bin", "--key", "firmware-samples/keys/TEST-ONLY-ed25519.pub.pem"], 0),
        (["firmware-samples/broken/bad-magic.bin"], 3),
        (["firmware-samples/broken/tampered-body.bin", "--key", key], 3),
        ([NordicFlashCLITests.package, "--key", NordicFlashCLITests.key], 0),
        (["firmware-samples/nordic/broken/flipped-signature-byte.zip", "--key", NordicFlashCLITests.key], 3),
        (["firmware-samples/ncs/nrf5340-1.1.0.zip", "--key", key], 0),
        (["firmware-samples/ncs/broken/tampered-net-core.zip", "--key", key], 3),
    ] as [([String], Int32)])
    func verifyLinesMatchTheSchema(arguments: [String], exitCode: Int32) throws {
        let run = try DFURun.run(["verify"] + arguments + ["--json"])
        #expect(try Self.validLines(run, command: "verify", exitCode: exitCode) == ["result"])
    }

    // MARK: - scan

    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
    func scanWithoutBluetoothdMatchesTheSchema() throws {
        try ScanTestBus.withBus { environment in
            let run = try DFURun.run(["scan", "--timeout", "1", "--json"], timeout: 30, environment: environment)
            #expect(try Self.validLines(run, command: "scan", exitCode: 5) == ["result"])
        }
    }

    // MARK: - info

    @Test(arguments: [
        (["--device", "sim:timescale=0"], 0),
        (["--device", "sim:protocol=nordic,timescale=0"], 0),
        (["--device", closedDevice, "--connect-timeout", "2"], 5),
    ] as [([String], Int32)])
    func infoLinesMatchTheSchema(arguments: [String], exitCode: Int32) throws {
        let run = try DFURun.run(["info"] + arguments + ["--json"], timeout: 30)
        #expect(try Self.validLines(run, command: "info", exitCode: exitCode) == ["result"])
    }

    // MARK: - image, reset, echo

    /// The everyday SMP commands, each one line: on the virtual device, refused by a Nordic one,
    /// refused by the device (a hash it does not hold), and with nothing listening.
    @Test(arguments: [
        (["image", "list", "--device", "sim:timescale=0"], 0),
        (["image", "list", "--device", "sim:protocol=nordic,timescale=0"], 4),
        (["image", "list", "--device", closedDevice, "--connect-timeout", "2"], 5),
        (["image", "test", String(repeating: "0", count: 64), "--device", "sim:timescale=0"], 7),
        (["image", "confirm", "--device", "sim:timescale=0"], 0),
        (["image", "confirm", ImageCommandsCLITests.runningHash, "--device", "sim:timescale=0"], 0),
        (["image", "erase", "--device", "sim:timescale=0"], 0),
        (["image", "erase", "1", "--device", "sim:timescale=0"], 0),
        (["reset", "--device", "sim:timescale=0"], 0),
        (["reset", "--wait", "--device", "sim:timescale=0"], 0),
        (["echo", "hello", "--device", "sim:timescale=0"], 0),
        (["echo", "hello", "--device", "sim:protocol=nordic,timescale=0"], 4),
    ] as [([String], Int32)])
    func operationLinesMatchTheSchema(arguments: [String], exitCode: Int32) throws {
        let run = try DFURun.run(arguments + ["--json"], timeout: 30)
        let command = arguments[0] == "image" ? "image " + arguments[1] : arguments[0]
        #expect(try Self.validLines(run, command: command, exitCode: exitCode) == ["result"])
    }

    // MARK: - pair, unpair

    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed (make deps)"),
          arguments: ["pair", "unpair"])
    func pairAndUnpairWithoutBluetoothdMatchTheSchema(command: String) throws {
        try ScanTestBus.withBus { environment in
            let run = try DFURun.run([command, "--device", "C2:11:40:55:7A:01", "--json"], timeout: 30, environment: environment)
            #expect(try Self.validLines(run, command: command, exitCode: 5) == ["result"])
        }
    }

    // MARK: - flash

    @Test func flashThatSucceedsMatchesTheSchema() throws {
        let run = try FlashCLITests.flash(["--json", "--verbose"])
        let events = Set(try Self.validLines(run, command: "flash", exitCode: 0))
        #expect(events.isSuperset(of: ["stage", "image", "connected", "device", "preconditions", "progress", "activated",
                                       "rebooting", "reconnected", "version", "log", "result"]), "\(events)")
    }

    @Test func flashThatFailsAPreconditionMatchesTheSchema() throws {
        let run = try FlashCLITests.flash(["--json"], sim: "battery=15")
        #expect(try Self.validLines(run, command: "flash", exitCode: 4).last == "result")
        #expect(run.stdoutLines.last?.contains(#""failures":[{"check":"battery""#) == true, "\(run.stdout)")
    }

    @Test func flashDryRunMatchesTheSchema() throws {
        let run = try FlashCLITests.flash(["--json", "--dry-run"])
        #expect(Set(try Self.validLines(run, command: "flash", exitCode: 0)).contains("dry-run"))
        #expect(run.stdoutLines.last?.contains(#""dry_run":true"#) == true, "\(run.stdout)")
    }

    @Test func flashThatLosesTheLinkMatchesTheSchema() throws {
        let run = try FlashCLITests.flash(["--json"], sim: "fault=disconnect@40%")
        #expect(Set(try Self.validLines(run, command: "flash", exitCode: 0)).isSuperset(of: ["resumed", "warning"]))
    }

    @Test func flashOfANordicPackageMatchesTheSchema() throws {
        let run = try NordicFlashCLITests.flash(["--json"])
        #expect(Set(try Self.validLines(run, command: "flash", exitCode: 0)).contains("reconnected"))
    }

    @Test func flashOfAnNCSZipOfTwoImagesMatchesTheSchema() throws {
        let run = try FlashCLITests.flash(["--json"], sim: "images=2", image: "firmware-samples/ncs/nrf5340-1.1.0.zip")
        #expect(Set(try Self.validLines(run, command: "flash", exitCode: 0)).contains("part"))
    }

    @Test func flashOfAnUnreachableDeviceMatchesTheSchema() throws {
        let run = try DFURun.run(["flash", Self.image, "--device", Self.closedDevice, "--key", Self.key,
                                  "--connect-timeout", "2", "--json"], timeout: 30)
        #expect(try Self.validLines(run, command: "flash", exitCode: 5).last == "result")
    }

    // MARK: - resume

    /// An update cut off mid-upload, whose device is then gone, leaves its journal; a foreign
    /// journal file is set aside with a warning. `--list`, the resumed run (its own last line an
    /// `update-result`, then the one `result`), `--forget` and nothing left to resume.
    @Test func resumeLinesMatchTheSchema() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let device = "udp:127.0.0.1:\(try #require(sim.ready()).port)"
        _ = try ResumeCLITests.flash(Self.image, device: device, state: state, stoppedAt: .transferMiddle, with: SIGKILL)
        #expect(sim.stop().exitCode == 0)
        try Data(#"{"format":"other/9"}"#.utf8).write(to: URL(fileURLWithPath: state + "/dfu/foreign.json"))

        let list = try DFURun.run(["resume", "--list", "--json"], timeout: 30, environment: environment)
        #expect(try Self.validLines(list, command: "resume", exitCode: 0) == ["unfinished", "warning", "result"])
        let resumed = try DFURun.run(["resume", "--connect-timeout", "2", "--json"], timeout: 30, environment: environment)
        let events = try Self.validLines(resumed, command: "resume", exitCode: 5)
        #expect(events.first == "resume" && events.contains("stage") && events.suffix(2) == ["update-result", "result"],
                "\(events)")
        #expect(events.filter { $0 == "result" }.count == 1)
        let summary = try FlashCLITests.object(try #require(resumed.stdoutLines.last))
        let updates = summary["updates"] as? [[String: Any]] ?? []
        #expect(summary["resumed"] as? Int == 1 && summary["failed"] as? Int == 1 && updates.count == 1
                && updates.first?["device"] as? String == device && updates.first?["exit_code"] as? Int == 5, "\(summary)")
        let forgot = try DFURun.run(["resume", "--forget", "--device", device, "--json"], timeout: 30, environment: environment)
        #expect(try Self.validLines(forgot, command: "resume", exitCode: 0) == ["result"])
        let nothing = try DFURun.run(["resume", "--json"], timeout: 30, environment: environment)
        #expect(try Self.validLines(nothing, command: "resume", exitCode: 0) == ["result"])
    }

    // MARK: - batch

    /// One device that updates and one whose battery is too low; run again, the first is skipped.
    @Test func batchLinesMatchTheSchema() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let root = DFUBinary.repositoryRoot.path
        let plan = state + "/plan.csv"
        try """
            device,image
            "sim:id=a1,timescale=0",\(root)/\(Self.image)
            "sim:id=a2,battery=15,timescale=0",\(root)/\(Self.image)

            """.write(toFile: plan, atomically: true, encoding: .utf8)
        let arguments = ["batch", plan, "--key", root + "/" + Self.key, "--json"]
        for pass in 1 ... 2 {
            let run = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
            #expect(try Self.validLines(run, command: "batch", exitCode: 4) == ["device", "device", "result"], "pass \(pass)")
        }
        try "device,image,mode\nsim:id=x,a.bin,sideways\n".write(toFile: state + "/bad.csv", atomically: true, encoding: .utf8)
        let refused = try DFURun.run(["batch", state + "/bad.csv", "--json"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(try Self.validLines(refused, command: "batch", exitCode: 2) == ["result"], "a refused plan is a result line")
        let dryRun = try DFURun.run(arguments + ["--dry-run"], timeout: 60, environment: ["XDG_STATE_HOME": state + "/dry"])
        #expect(try Self.validLines(dryRun, command: "batch", exitCode: 4) == ["device", "device", "result"])
        #expect(dryRun.stdout.contains(#""result":"checked""#), "\(dryRun.stdout)")
    }

    // MARK: - The documents

    /// The examples in docs/json-events.md and the README are lines of schema 2 too.
    @Test(arguments: ["docs/json-events.md", "README.md"])
    func documentedExamplesMatchTheSchema(document: String) throws {
        let validator = try Self.validator()
        let text = try String(contentsOf: DFUBinary.repositoryRoot.appendingPathComponent(document), encoding: .utf8)
        let examples = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix(#"{"event""#) }
        #expect(!examples.isEmpty)
        for line in examples {
            #expect(validator.problems(try JSONNode.parse(line)).isEmpty, "\(line)")
        }
    }

    // MARK: - Helpers

    static func validator() throws -> JSONSchemaValidator {
        let file = DFUBinary.repositoryRoot.appendingPathComponent("docs/json-events.schema.json")
        return try JSONSchemaValidator(schema: JSONNode.parse(String(contentsOf: file, encoding: .utf8)))
    }

    /// Checks every stdout line of `run` against the schema, and that the run ended with
    /// `command`'s result carrying its exit code, with nothing on stderr; returns the events in order.
    static func validLines(_ run: DFURun, command: String, exitCode: Int32,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let validator = try validator()
        #expect(run.exitCode == exitCode, "\(run.output)", sourceLocation: sourceLocation)
        #expect(run.stderr.isEmpty, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(!run.stdoutLines.isEmpty, "no output", sourceLocation: sourceLocation)
        var events: [String] = []
        for line in run.stdoutLines {
            #expect(line.wholeMatch(of: /\{"event":"[a-z-]+","schema":2[,}].*/) != nil,
                    "\"event\" then \"schema\":2 first: \(line)", sourceLocation: sourceLocation)
            let node = try JSONNode.parse(line)
            let problems = validator.problems(node)
            #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "; ")) in \(line)",
                    sourceLocation: sourceLocation)
            events.append(node["event"]?.stringValue ?? "?")
        }
        let result = try JSONNode.parse(try #require(run.stdoutLines.last, sourceLocation: sourceLocation))
        #expect(result["event"]?.stringValue == "result" && result["command"]?.stringValue == command
                && result["exit_code"]?.intValue == Int(exitCode), "\(result)", sourceLocation: sourceLocation)
        return events
    }

    /// A device nothing answers for: a loopback UDP port that was bound and released.
    static let closedDevice = "udp:127.0.0.1:\((try? FlashCLITests.closedUDPPort()) ?? 9)"
}
