import DFUCore

/// What `dfu batch` knows of one device's update while it runs, folded from the engine's events:
/// the stage, the bytes the device acknowledged, the versions before and after. The terminal view
/// draws it; the report is made from it when the run ends.
struct BatchDeviceProgress: Sendable {
    var stage: UpdateStage?
    /// Every stage the run entered (a device that already runs the image skips the preconditions).
    var stagesStarted: Set<UpdateStage> = []
    var acknowledged = 0
    var total = 0
    var rate: Double = 0
    /// Bytes acknowledged in parts already sent (an update of several parts).
    var earlierParts = 0
    var part: String?
    var versionBefore: String?
    var versionAfter: String?
    var warnings: [String] = []
    /// The device answered with its state (the run read it, whatever came after).
    var deviceStateRead = false
    /// `--dry-run`: what the real run would do, once every check passed.
    var dryRunPlan: DryRunVerdict.Plan?

    mutating func fold(_ event: UpdateEvent) {
        switch event {
        case .stageStarted(let stage):
            self.stage = stage
            stagesStarted.insert(stage)
        case .deviceState(let facts):
            deviceStateRead = true
            versionBefore = versionBefore ?? facts.statedVersion ?? facts.firmwareRevision
        case .dryRunPassed(let verdict):
            dryRunPlan = verdict.plan
        case .partStarted(let part):
            earlierParts += acknowledged
            acknowledged = 0
            self.part = part.label
        case .progress(let progress):
            acknowledged = progress.acknowledged
            total = progress.total
            rate = progress.rate
        case .versionConfirmed(let version, _, _):
            versionAfter = version.description
        case .firmwareReported(let update, _, _):
            versionAfter = update
        case .warning(let warning):
            warnings.append(warning)
        default:
            break
        }
    }

    /// Every byte the device acknowledged, all parts.
    var bytes: Int { earlierParts + acknowledged }
}
