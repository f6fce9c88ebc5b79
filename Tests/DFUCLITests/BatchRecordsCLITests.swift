import Foundation
import Testing

/// What a batch's records carry: every device in full (the terminal alone shortens addresses),
/// and the plan's own extra columns (a serial number, notes) echoed in each device's line.
@Suite(.endToEnd) struct BatchRecordsCLITests {
    /// Two addresses that end alike: told apart in --json and --report, shortened on the terminal.
    @Test func recordsNameEveryDeviceInFullAndTheTerminalShortens() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let plan = state + "/plan.csv"
        try """
            device,image
            C2:11:40:55:7A:01,\(BatchCLITests.root)/\(FlashCLITests.image)
            c3:11:40:55:7a:01,\(BatchCLITests.root)/\(FlashCLITests.image)
            """.write(toFile: plan, atomically: true, encoding: .utf8)
        // No system bus here: both fail as unreachable, which is enough to name them.
        let environment = ["XDG_STATE_HOME": state, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(state)/no-bus"]
        let json = try DFURun.run(["batch", plan, "--key", BatchCLITests.key, "--json", "--report", state + "/report.jsonl"],
                                  timeout: 60, environment: environment)
        #expect(json.exitCode == 5, "\(json.output)")
        let devices = try json.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
        #expect(devices.compactMap { $0["device"] as? String } == ["C2:11:40:55:7A:01", "C3:11:40:55:7A:01"], "\(json.stdout)")
        let report = try String(contentsOfFile: state + "/report.jsonl", encoding: .utf8)
        #expect(report.contains(#""device":"C2:11:40:55:7A:01""#) && report.contains(#""device":"C3:11:40:55:7A:01""#))

        let text = try DFURun.run(["batch", plan, "--key", BatchCLITests.key], timeout: 60, environment: environment)
        let failed = text.stdoutLines.filter { $0.hasPrefix("FAILED ") }
        #expect(failed.count == 2 && failed.allSatisfy { $0.contains("…:7A:01") } && !text.stdout.contains("C2:11"),
                "\(text.stdout)")
    }

    /// Extra columns are kept, not refused, and come back in the device's line as written; one
    /// that looks like a mistyped column is kept with a warning.
    @Test func extraColumnsAreEchoedInTheReport() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let plan = state + "/plan.csv"
        try """
            serial,device,image,Notes,min_batery
            SN-0041,"sim:id=e1,timescale=0",\(BatchCLITests.root)/\(FlashCLITests.image),"reworked, retest",
            SN-0042,"sim:id=e2,timescale=0",\(BatchCLITests.root)/\(FlashCLITests.image),,10
            """.write(toFile: plan, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", plan, "--key", BatchCLITests.key, "--json", "--report", state + "/report.jsonl"],
                                 timeout: 60, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.isEmpty, "--json: the column is in each line as written: \(run.stderr)")
        let devices = try run.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
            .sorted { ($0["line"] as? Int ?? 0) < ($1["line"] as? Int ?? 0) }
        let extras = devices.compactMap { $0["extra"] as? [String: String] }
        #expect(extras == [["serial": "SN-0041", "Notes": "reworked, retest", "min_batery": ""],
                           ["serial": "SN-0042", "Notes": "", "min_batery": "10"]], "\(run.stdout)")
        #expect(try String(contentsOfFile: state + "/report.jsonl", encoding: .utf8)
            .contains(#""extra":{"serial":"SN-0041","Notes":"reworked, retest","min_batery":""}"#))

        let text = try DFURun.run(["batch", plan, "--key", BatchCLITests.key, "--dry-run"], timeout: 60,
                                  environment: ["XDG_STATE_HOME": state])
        #expect(text.exitCode == 0, "\(text.output)")
        #expect(text.stderr == "dfu: warning: \(plan) line 1: column 'min_batery' is not one dfu reads (did you mean "
                + "'min_battery'?); it is kept as an extra column for the report\n", "\(text.stderr)")

        let jsonPlan = state + "/plan.jsonl"
        try #"{"device": "sim:id=j1,timescale=0", "image": "\#(BatchCLITests.root)/\#(FlashCLITests.image)", "serial": "SN-7", "lot": 12}"#
            .write(toFile: jsonPlan, atomically: true, encoding: .utf8)
        let jsonRun = try DFURun.run(["batch", jsonPlan, "--key", BatchCLITests.key, "--json", "--dry-run"], timeout: 60,
                                     environment: ["XDG_STATE_HOME": state])
        #expect(jsonRun.exitCode == 0, "\(jsonRun.output)")
        #expect(jsonRun.stdout.contains(#""extra":{"lot":"12","serial":"SN-7"}"#), "\(jsonRun.stdout)")
    }
}
