/// The serial part's smpmgr comparison: where smpmgr was found and its runs, one per baud rate
/// of the serial part, or that it is not installed (the bench needs no Python).
struct SmpmgrComparison: Sendable, Encodable {
    let installed: Bool
    let executable: String?
    let version: String?
    let runs: [SmpmgrMeasurement]

    static let notInstalled = SmpmgrComparison(installed: false, executable: nil, version: nil, runs: [])
}
