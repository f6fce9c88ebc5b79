import Foundation
import Testing

/// `dfu batch --report FILE`: never the plan, never a file that is not a dfu report unless
/// `--force`, and replaced whole (a new file renamed over it), never emptied in place.
@Suite(.endToEnd) struct BatchReportCLITests {
    static let planText = "device,image\n\"sim:id=r1,timescale=0\",\(BatchCLITests.root)/\(FlashCLITests.image)\n"

    private static func batch(_ plan: String, _ extra: [String], state: String) throws -> DFURun {
        try DFURun.run(["batch", plan, "--key", BatchCLITests.key] + extra, timeout: 60, environment: ["XDG_STATE_HOME": state])
    }

    /// The plan itself, by its own name, through a symbolic link or a hard link: refused (exit 2),
    /// also with --force, and the plan is left as it was.
    @Test func aReportThatIsThePlanIsRefusedByAnyName() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let plan = state + "/plan.csv"
        try Self.planText.write(toFile: plan, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: state + "/symlink.csv", withDestinationPath: "plan.csv")
        try FileManager.default.linkItem(atPath: plan, toPath: state + "/hardlink.csv")
        for report in [plan, state + "/symlink.csv", state + "/hardlink.csv"] {
            for force in [[], ["--force"]] {
                let run = try Self.batch(plan, ["--report", report] + force, state: state)
                #expect(run.exitCode == 2, "\(report) \(force): \(run.output)")
                #expect(run.stderr.contains("--report \(report) is the plan \(plan) itself"), "\(run.stderr)")
                #expect(try String(contentsOfFile: plan, encoding: .utf8) == Self.planText, "the plan was changed")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: state + "/dfu"), "nothing ran")
    }

    /// A file that is not a dfu batch report is kept unless --force; with it, it is replaced.
    @Test func aFileThatIsNotADFUReportIsReplacedOnlyWithForce() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let plan = state + "/plan.csv"
        try Self.planText.write(toFile: plan, atomically: true, encoding: .utf8)
        let notes = state + "/notes.txt"
        try "shift notes: line 7 ok\n".write(toFile: notes, atomically: true, encoding: .utf8)

        let refused = try Self.batch(plan, ["--report", notes], state: state)
        #expect(refused.exitCode == 2, "\(refused.output)")
        #expect(refused.stderr.contains("--report \(notes) exists and is not a dfu batch report"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "shift notes: line 7 ok\n")
        #expect(!FileManager.default.fileExists(atPath: state + "/dfu"), "nothing ran")

        let forced = try Self.batch(plan, ["--report", notes, "--force"], state: state)
        #expect(forced.exitCode == 0, "\(forced.output)")
        let lines = try String(contentsOfFile: notes, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.first?.hasPrefix(#"{"event":"device","schema":"#) == true, "\(lines)")
    }

    /// A report of an earlier batch is dfu's own: replaced without --force, by a new file renamed
    /// over it, so a reader holding the old one (here a hard link to it) still has it whole. A
    /// symbolic link to the report stays a link, and its target gets the lines.
    @Test func anEarlierReportIsReplacedWholeNotEmptiedInPlace() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let plan = state + "/plan.csv"
        try Self.planText.write(toFile: plan, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: state + "/reports", withIntermediateDirectories: true)
        let report = state + "/reports/line-7.jsonl"
        try FileManager.default.createSymbolicLink(atPath: state + "/latest.jsonl", withDestinationPath: "reports/line-7.jsonl")

        let first = try Self.batch(plan, ["--report", state + "/latest.jsonl"], state: state)
        #expect(first.exitCode == 0, "\(first.output)")
        let firstReport = try String(contentsOfFile: report, encoding: .utf8)
        #expect(firstReport.split(separator: "\n").count == 2, "\(firstReport)")
        let attributes = try FileManager.default.attributesOfItem(atPath: state + "/latest.jsonl")
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link stays a link")

        try FileManager.default.linkItem(atPath: report, toPath: state + "/kept.jsonl")
        let second = try Self.batch(plan, ["--report", report, "--dry-run"], state: state)
        #expect(second.exitCode == 0, "\(second.output)")
        #expect(try String(contentsOfFile: state + "/kept.jsonl", encoding: .utf8) == firstReport,
                "the earlier report was not emptied in place")
        let secondReport = try String(contentsOfFile: report, encoding: .utf8)
        #expect(secondReport.contains(#""result":"checked""#) && secondReport.split(separator: "\n").count == 2, "\(secondReport)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: state + "/reports").filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)")
    }
}
