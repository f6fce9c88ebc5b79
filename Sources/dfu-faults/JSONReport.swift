import ExitCodes
import Foundation

/// The `--json` document: the settings, each scenario's figures as the table shows them, and every
/// run with its seed, faults, exit statuses and verdict.
struct JSONReport: Encodable {
    struct Run: Encodable {
        let run: Int
        let seed: UInt64
        let device: String
        let faults: String
        /// One per update of the run (two when the scenario reruns).
        let exitCodes: [Int32]
        let messages: [String]
        let completed: Bool
        /// Nil unless the run ended as its scenario does not allow.
        let unexpected: String?
        /// The invariants the run broke (`Invariant` raw values); empty when it kept all.
        let invariantViolations: [String]
        let uploadedBytes: Int
        let extraBytes: Int
        let resumes: Int
        let modelSeconds: Double
        let wallSeconds: Double

        init(_ record: RunRecord) {
            run = record.run
            seed = record.seed
            device = record.device
            faults = record.faults
            exitCodes = record.attempts.map { $0.hung ? -1 : $0.killed ? -9 : $0.exitStatus.rawValue }
            messages = record.attempts.map(\.message)
            completed = record.outcome.isCompleted
            unexpected = record.outcome.unexpectedReason
            invariantViolations = record.violations.map(\.rawValue)
            uploadedBytes = record.uploadedBytes
            extraBytes = record.extraBytes
            resumes = record.resumes
            modelSeconds = record.modelSeconds
            wallSeconds = record.wallSeconds
        }
    }

    struct Scenario: Encodable {
        let name: String
        let injects: String
        let fault: String?
        let expected: String
        let runs: Int
        let completed: Int
        /// Exit status (as text, a JSON key) → runs that failed with it as expected.
        let expectedFailures: [String: Int]
        let unexpected: Int
        let link: String
        let invariantViolations: Int
        let extraBytesMedian: Double?
        let extraBytesMax: Int?
        let resumesMedian: Double?
        let modelSecondsMedian: Double?
        let modelSecondsMax: Double?
        let runRecords: [Run]

        init(_ summary: ScenarioSummary) {
            name = summary.scenario.name
            injects = summary.scenario.summary
            fault = summary.scenario.fault
            expected = summary.scenario.expectation.text
            runs = summary.runs
            completed = summary.completed
            expectedFailures = Dictionary(uniqueKeysWithValues: summary.expectedFailures.map { (String($0.status), $0.count) })
            unexpected = summary.unexpected.count
            link = summary.scenario.link.rawValue
            invariantViolations = summary.violations
            extraBytesMedian = summary.extraBytesMedian
            extraBytesMax = summary.extraBytesMax
            resumesMedian = summary.resumesMedian
            modelSecondsMedian = summary.modelSecondsMedian
            modelSecondsMax = summary.modelSecondsMax
            runRecords = summary.records.map(Run.init)
        }
    }

    /// Said once in the document, so a reader of the raw numbers need not guess.
    let units = "bytes are image bytes in upload requests; modelSeconds in the link model's time, wallSeconds real; "
        + "exit code -1: the update hung and was abandoned; -9: the campaign killed its dfu (SIGKILL)"
    let settings: CampaignSettings
    let wallSeconds: Double
    let scenarios: [Scenario]
    let runs: Int
    let invariantViolations: Int
    /// Invariant raw value → runs that broke it, every invariant listed.
    let invariants: [String: Int]

    init(settings: CampaignSettings, wallSeconds: Double, summaries: [ScenarioSummary]) {
        self.settings = settings
        self.wallSeconds = wallSeconds
        scenarios = summaries.map(Scenario.init)
        let totals = CampaignTotals(summaries)
        runs = totals.runs
        invariantViolations = totals.violations
        invariants = Dictionary(uniqueKeysWithValues: totals.byInvariant.map { ($0.invariant.rawValue, $0.count) })
    }

    func rendered() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
