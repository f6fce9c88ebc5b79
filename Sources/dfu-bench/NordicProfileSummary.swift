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
        goodput = ProfileSummary.median(runs.map(\.goodput))
        ceiling = ProfileSummary.median(runs.map(\.ceiling))
        radioCeiling = ProfileSummary.median(runs.map(\.radioCeiling))
        ratio = ceiling > 0 ? goodput / ceiling : 0
        transferSeconds = ProfileSummary.median(runs.map(\.transferSeconds))
        modelSeconds = ProfileSummary.median(runs.map(\.modelSeconds))
        self.runs = runs
    }

    /// The run whose goodput is the median (the lower middle one for an even count).
    var medianRun: NordicRunMeasurement? {
        let sorted = runs.sorted { $0.goodput < $1.goodput }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }
}
