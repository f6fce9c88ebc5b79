import Foundation

/// The environment every `dfu` a test starts runs in: the test process's own, with the update
/// journals (`$XDG_STATE_HOME/dfu`) in a directory of this test run, so tests never read or write
/// the user's. A test about journals passes its own `XDG_STATE_HOME`.
enum DFUTestEnvironment {
    static let stateDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("dfu-tests-state-\(ProcessInfo.processInfo.processIdentifier)").path

    static var base: [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": stateDirectory]) { _, ours in ours }
    }

    /// A fresh journal directory for one test, removed by the caller (`defer`).
    static func freshStateHome() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
