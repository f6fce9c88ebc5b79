/// The campaign's totals over every scenario: runs (per protocol too), unexpected outcomes and
/// invariant violations (per invariant too), and the one line `make faults` ends with.
struct CampaignTotals: Sendable {
    let runs: Int
    let unexpected: Int
    let violations: Int
    /// Every invariant, in declaration order, with the runs that broke it.
    let byInvariant: [(invariant: Invariant, count: Int)]
    /// `SMP`, then `Nordic`, with their runs (a protocol with none is left out).
    let runsByProtocol: [(name: String, runs: Int)]

    init(_ summaries: [ScenarioSummary]) {
        let records = summaries.flatMap(\.records)
        runs = records.count
        unexpected = summaries.map(\.unexpected.count).reduce(0, +)
        violations = records.map(\.violations.count).reduce(0, +)
        byInvariant = Invariant.allCases.map { invariant in
            (invariant, records.filter { $0.violations.contains(invariant) }.count)
        }
        runsByProtocol = ["SMP", "Nordic"].compactMap { name in
            let runs = summaries.filter { $0.scenario.protocolName == name }.map(\.runs).reduce(0, +)
            return runs > 0 ? (name, runs) : nil
        }
    }

    /// Exactly what the campaign's output ends with: `faults: 640 runs, 0 invariant violations`.
    var lastLine: String { "faults: \(runs) runs, \(violations) invariant violations" }
}
