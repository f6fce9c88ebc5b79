import ReportSupport

/// What the whole campaign ran with, printed above the table and kept in the JSON document so a
/// reader can rerun it exactly.
struct CampaignSettings: Sendable, Encodable {
    let image: String
    let imageBytes: Int
    let imageVersion: String
    let runsPerScenario: Int
    let seed: UInt64
    let timeScale: Double
    let hangGuardSeconds: Double
    let machine: MachineInfo
}
