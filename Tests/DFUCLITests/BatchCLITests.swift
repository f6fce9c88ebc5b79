import Foundation
import Testing

/// `dfu batch` as a factory station runs it: a plan of virtual devices, some failing on purpose,
/// one report line each, an exit status for all, and a re-run that flashes only what failed.
@Suite(.endToEnd) struct BatchCLITests {
    static let root = DFUBinary.repositoryRoot.path
    static let key = root + "/" + FlashCLITests.key
    static let otherKey = root + "/firmware-samples/keys/TEST-ONLY-other-ecdsa-p256.pub.pem"

    /// 20 devices, 4 at a time: 14 fine, 2 with a low battery, 2 whose key column names the wrong
    /// key, 2 that nothing answers for. Then the same plan with the battery limit and the keys
    /// fixed: the 4 fixed ones are flashed, the unreachable ones fail again, and the 14 are asked
    /// before they are skipped (their journals say done): virtual devices start afresh on 1.0.0
    /// in every run, so they are flashed again (`BatchDoneCheckCLITests` has a device that keeps
    /// its image).
    @Test func twentyDevicesThenARerunFlashesWhatDoesNotRunTheImage() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let closed = [try FlashCLITests.closedUDPPort(), try FlashCLITests.closedUDPPort()]
        func plan(fixed: Bool) -> String {
            var rows = ["device,image,key,min_battery"]
            for index in 1 ... 14 { rows.append("\"sim:id=ok\(index),timescale=0\",\(FlashCLITests.image),,") }
            for index in 1 ... 2 { rows.append("\"sim:id=low\(index),battery=15,timescale=0\",\(FlashCLITests.image),,\(fixed ? "10" : "")") }
            for index in 1 ... 2 { rows.append("\"sim:id=key\(index),timescale=0\",\(FlashCLITests.image),\(fixed ? "" : Self.otherKey),") }
            for port in closed { rows.append("udp:127.0.0.1:\(port),\(FlashCLITests.image),,") }
            return rows.joined(separator: "\n") + "\n"
        }
        let planPath = state + "/plan.csv"
        let reportPath = state + "/report.jsonl"
        let imageName = String(FlashCLITests.image.split(separator: "/").last ?? "")
        // Relative image paths are read from the plan's directory: put the image there.
        try FileManager.default.copyItem(atPath: Self.root + "/" + FlashCLITests.image,
                                         toPath: state + "/" + imageName)
        let arguments = ["batch", planPath, "--key", Self.key, "--parallel", "4", "--connect-timeout", "2", "--json",
                         "--report", reportPath]
        try plan(fixed: false).replacingOccurrences(of: FlashCLITests.image, with: imageName)
            .write(toFile: planPath, atomically: true, encoding: .utf8)

        let first = try DFURun.run(arguments, timeout: 120, environment: ["XDG_STATE_HOME": state])
        #expect(first.exitCode == 3, "the wrong key is the most severe failure: \(first.output)")
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        let lines = try first.stdoutLines.map(FlashCLITests.object)
        let devices = lines.filter { $0["event"] as? String == "device" }
        #expect(devices.count == 20 && lines.last?["event"] as? String == "result")
        #expect(Set(devices.compactMap { $0["line"] as? Int }) == Set(2 ... 21), "one line per plan row")
        func results(_ objects: [[String: Any]], _ prefix: String) -> [String] {
            objects.filter { ($0["device"] as? String)?.hasPrefix(prefix) == true }.compactMap { $0["result"] as? String }
        }
        #expect(results(devices, "sim:id=ok") == Array(repeating: "ok", count: 14))
        for object in devices where (object["device"] as? String)?.hasPrefix("sim:id=ok") == true {
            #expect(object["version_before"] as? String == "1.0.0+0" && object["version_after"] as? String == "1.1.0+0")
            #expect(object["bytes"] as? Int == 49816 && object["stage"] as? String == "done" && object["protocol"] as? String == "smp")
        }
        let low = devices.filter { ($0["device"] as? String)?.hasPrefix("sim:id=low") == true }
        #expect(low.allSatisfy { $0["exit_code"] as? Int == 4 && $0["stage"] as? String == "check-preconditions" })
        let wrongKey = devices.filter { ($0["device"] as? String)?.hasPrefix("sim:id=key") == true }
        #expect(wrongKey.allSatisfy { $0["exit_code"] as? Int == 3 && $0["bytes"] as? Int == 0 }, "\(wrongKey)")
        let unreachable = devices.filter { ($0["device"] as? String)?.hasPrefix("udp:") == true }
        #expect(unreachable.allSatisfy { [5, 6].contains($0["exit_code"] as? Int ?? 0) }, "\(unreachable)")
        let summary = try #require(lines.last)
        #expect(summary["ok"] as? Bool == false && summary["exit_code"] as? Int == 3)
        #expect(summary["devices"] as? Int == 20 && summary["succeeded"] as? Int == 14 && summary["failed"] as? Int == 6)
        let report = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(Set(report.split(separator: "\n").map(String.init)) == Set(first.stdoutLines), "--report holds the same lines")

        try plan(fixed: true).replacingOccurrences(of: FlashCLITests.image, with: imageName)
            .write(toFile: planPath, atomically: true, encoding: .utf8)
        let second = try DFURun.run(arguments, timeout: 120, environment: ["XDG_STATE_HOME": state])
        let again = try second.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
        #expect(results(again, "sim:id=ok") == Array(repeating: "ok", count: 14), "\(second.stdout)")
        #expect(results(again, "sim:id=low") == ["ok", "ok"] && results(again, "sim:id=key") == ["ok", "ok"])
        #expect(results(again, "udp:") == ["failed", "failed"])
        #expect([5, 6].contains(second.exitCode), "only the unreachable ones are left: \(second.output)")
    }

    /// A plan is checked whole before anything runs: every bad row is named by its line, nothing is
    /// flashed, and a mistyped passkey is never echoed.
    @Test func aBadRowRefusesThePlanAndNeverEchoesAPasskey() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let planPath = state + "/plan.csv"
        try """
            device,image,mode,passkey
            sim:id=a,\(Self.root)/\(FlashCLITests.image),sideways,
            C2:11:40:55:7A:01,\(Self.root)/\(FlashCLITests.image),,12ab56
            sim:id=b,\(Self.root)/\(FlashCLITests.image),,123456
            """.write(toFile: planPath, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", planPath], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("3 rows cannot run, so none was started"), "\(run.stderr)")
        #expect(run.stderr.contains("line 2, column mode: 'sideways' is not a mode"), "\(run.stderr)")
        #expect(run.stderr.contains("line 3, column passkey: must be six digits"))
        #expect(run.stderr.contains("line 4, column passkey: is for Bluetooth devices"), "\(run.stderr)")
        #expect(!run.output.contains("12ab56") && !run.output.contains("123456"), "a passkey was printed")
        #expect(!FileManager.default.fileExists(atPath: state + "/dfu"), "nothing ran, so no journal")
    }

    /// JSON lines with the same keys as the CSV columns, numbers as numbers.
    @Test func aJSONLinesPlanRunsLikeACSVOne() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let planPath = state + "/plan.jsonl"
        let image = Self.root + "/" + FlashCLITests.image
        try """
            {"device": "sim:id=j1,timescale=0", "image": "\(image)"}
            # a comment line
            {"device": "sim:id=j2,battery=20,timescale=0", "image": "\(image)", "min_battery": 10, "mode": "confirm-only"}
            """.write(toFile: planPath, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", planPath, "--key", Self.key, "--parallel", "2"], timeout: 60,
                                 environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.first == "dfu batch: 2 devices, up to 2 at a time")
        #expect(run.stdoutLines.filter { $0.hasPrefix("OK ") }.count == 2, "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("dfu batch: 2 ok, 0 failed of 2 in ") == true, "\(run.stdout)")
    }
}
