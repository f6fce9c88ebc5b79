import ReportSupport

/// One Nordic profile's runs and their medians: the row of the Nordic table.
struct NordicProfileSummary: Sendable, Encodable {
    let profile: String
    let link: String
    let summary: String
    let packetReceiptNotification: UInt16
    let goodput: Double
    let ceiling: Double
    let radioCeiling: Double
    let ratio: Double
    let transferSeconds: Double
    let modelSeconds: Double
    let runs: [NordicRunMeasurement]

    init(profile: NordicBenchProfile, runs: [NordicRunMeasurement]) {
        self.profile = profile.name
        link = profile.linkText
        summary = profile.summary
        packetReceiptNotification = profile.packetReceiptNotification
        goodput = Median.of(runs.map(\.goodput)) ?? 0
        ceiling = Median.of(runs.map(\.ceiling)) ?? 0
        radioCeiling = Median.of(runs.map(\.radioCeiling)) ?? 0
        ratio = ceiling > 0 ? goodput / ceiling : 0
        transferSeconds = Median.of(runs.map(\.transferSeconds)) ?? 0
        modelSeconds = Median.of(runs.map(\.modelSeconds)) ?? 0
        self.runs = runs
    }

    /// The run whose goodput is the median (the lower middle one for an even count).
    var medianRun: NordicRunMeasurement? {
        let sorted = runs.sorted { $0.goodput < $1.goodput }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }
}
