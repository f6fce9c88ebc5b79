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
        goodput = Self.median(runs.map(\.goodput))
        radioCeiling = Self.median(runs.map(\.radioCeiling))
        flashCeiling = Self.median(runs.map(\.flashCeiling))
        ceiling = min(radioCeiling, flashCeiling)
        limitedBy = radioCeiling <= flashCeiling ? "radio" : "flash"
        ratio = ceiling > 0 ? goodput / ceiling : 0
        eraseWaitSeconds = Self.median(runs.map(\.eraseWaitSeconds))
        transferSeconds = Self.median(runs.map(\.transferSeconds))
        connectSeconds = Self.median(runs.map(\.connectSeconds))
        cpuMillisecondsPerMiB = Self.median(runs.map(\.cpuMillisecondsPerMiB))
        window = runs.first?.window ?? 0
        chunkLayout = runs.first?.chunkLayout ?? "-"
        if wholeUpdates.isEmpty {
            wholeUpdateSeconds = nil
            wholeUpdateStageSeconds = nil
        } else {
            wholeUpdateSeconds = Self.median(wholeUpdates.map(\.wallSeconds))
            let stages = Set(wholeUpdates.flatMap(\.stageSeconds.keys))
            wholeUpdateStageSeconds = Dictionary(uniqueKeysWithValues: stages.map { stage in
                (stage, Self.median(wholeUpdates.compactMap { $0.stageSeconds[stage] }))
            })
        }
        self.runs = runs
        self.wholeUpdates = wholeUpdates
    }

    /// The middle value; the mean of the two middle ones for an even count; 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
