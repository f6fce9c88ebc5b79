import Foundation

/// The `--json` document: the same medians as the table, every run, and the host.
struct JSONReport: Encodable {
    let image: String
    let imageBytes: Int
    let runsPerProfile: Int
    let machine: MachineInfo
    let profiles: [ProfileSummary]

    func rendered() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
