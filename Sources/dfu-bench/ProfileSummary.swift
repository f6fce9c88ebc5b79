import ReportSupport

/// One profile's runs and their medians: the row the table prints. Each figure is the median of
/// that figure over the runs; the ratio is the median goodput over the ceiling (the ceilings do not
/// vary between runs: they depend only on the profile and the chunking).
struct ProfileSummary: Sendable, Encodable {
    let profile: String
    let link: String
    let summary: String
    let goodput: Double
    let radioCeiling: Double
    let flashCeiling: Double
    let ceiling: Double
    let limitedBy: String
    let ratio: Double
    let eraseWaitSeconds: Double
    let transferSeconds: Double
    let connectSeconds: Double
    let cpuMillisecondsPerMiB: Double
    let window: Int
    let chunkLayout: String
    /// Median wall time of a whole update and of each of its stages; nil without `--whole-update`.
    let wholeUpdateSeconds: Double?
    let wholeUpdateStageSeconds: [String: Double]?
    let runs: [RunMeasurement]
    let wholeUpdates: [WholeUpdateMeasurement]

    init(profile: BenchProfile, runs: [RunMeasurement], wholeUpdates: [WholeUpdateMeasurement] = []) {
        self.profile = profile.name
        link = profile.linkText
        summary = profile.summary
        goodput = Median.of(runs.map(\.goodput)) ?? 0
        radioCeiling = Median.of(runs.map(\.radioCeiling)) ?? 0
        flashCeiling = Median.of(runs.map(\.flashCeiling)) ?? 0
        ceiling = min(radioCeiling, flashCeiling)
        limitedBy = radioCeiling <= flashCeiling ? "radio" : "flash"
        ratio = ceiling > 0 ? goodput / ceiling : 0
        eraseWaitSeconds = Median.of(runs.map(\.eraseWaitSeconds)) ?? 0
        transferSeconds = Median.of(runs.map(\.transferSeconds)) ?? 0
        connectSeconds = Median.of(runs.map(\.connectSeconds)) ?? 0
        cpuMillisecondsPerMiB = Median.of(runs.map(\.cpuMillisecondsPerMiB)) ?? 0
        window = runs.first?.window ?? 0
        chunkLayout = runs.first?.chunkLayout ?? "-"
        if wholeUpdates.isEmpty {
            wholeUpdateSeconds = nil
            wholeUpdateStageSeconds = nil
        } else {
            wholeUpdateSeconds = Median.of(wholeUpdates.map(\.wallSeconds)) ?? 0
            let stages = Set(wholeUpdates.flatMap(\.stageSeconds.keys))
            wholeUpdateStageSeconds = Dictionary(uniqueKeysWithValues: stages.map { stage in
                (stage, Median.of(wholeUpdates.compactMap { $0.stageSeconds[stage] }) ?? 0)
            })
        }
        self.runs = runs
        self.wholeUpdates = wholeUpdates
    }
}
