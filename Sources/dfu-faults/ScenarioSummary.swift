import ReportSupport

/// One scenario's row of the report, from its runs.
struct ScenarioSummary: Sendable {
    let scenario: Scenario
    let records: [RunRecord]

    var runs: Int { records.count }
    var completed: Int { records.filter(\.outcome.isCompleted).count }
    var unexpected: [RunRecord] { records.filter { $0.outcome.unexpectedReason != nil } }
    /// Invariants broken, over all runs (a run breaking two counts two).
    var violations: Int { records.map(\.violations.count).reduce(0, +) }
    /// The runs that broke any invariant.
    var violating: [RunRecord] { records.filter { !$0.violations.isEmpty } }

    /// Expected failures by exit status, lowest status first: `[(7, 20)]`.
    var expectedFailures: [(status: Int32, count: Int)] {
        var counts: [Int32: Int] = [:]
        for record in records {
            if let status = record.outcome.expectedFailureStatus { counts[status.rawValue, default: 0] += 1 }
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Resend cost over the runs that sent the image whole at least once (a hung or refused run
    /// that never did would only pull the median down).
    var extraBytesMedian: Double? { Median.of(sentWhole.map { Double($0.extraBytes) }) }
    var extraBytesMax: Int? { sentWhole.map(\.extraBytes).max() }
    var resumesMedian: Double? { Median.of(records.map { Double($0.resumes) }) }
    var modelSecondsMedian: Double? { Median.of(records.map(\.modelSeconds)) }
    var modelSecondsMax: Double? { records.map(\.modelSeconds).max() }
    var wallSeconds: Double { records.map(\.wallSeconds).reduce(0, +) }

    private var sentWhole: [RunRecord] { records.filter { $0.extraBytes >= 0 } }
}
