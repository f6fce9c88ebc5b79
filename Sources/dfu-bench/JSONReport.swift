import ReportSupport
import Foundation

/// The `--json` document: the same medians as the table, every run, and the host.
struct JSONReport: Encodable {
    /// Said once in the document, so a reader of the raw numbers need not guess.
    let units = "rates (goodput, ceilings) in image bytes per second; times in seconds; CPU in ms per MiB"
    let image: String
    let imageBytes: Int
    let runsPerProfile: Int
    let machine: MachineInfo
    let profiles: [ProfileSummary]
    /// The Nordic package and profiles; absent when no Nordic profile ran.
    let nordicPackage: String?
    let nordicProfiles: [NordicProfileSummary]?
    /// The fleet and batch parts; absent when they did not run.
    let fleet: FleetMeasurement?
    let batch: BatchMeasurement?
    /// The serial part, per baud rate; absent when it did not run.
    let serial: [SerialSummary]?
    /// The serial part's batch of ports and its smpmgr comparison; absent when it did not run.
    let serialBatch: SerialBatchMeasurement?
    let smpmgr: SmpmgrComparison?

    func rendered() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
