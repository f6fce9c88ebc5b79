import Foundation

/// A run's own `XDG_STATE_HOME`: the journals of its `dfu` children (`$XDG_STATE_HOME/dfu/`), in
/// a fresh temporary directory, so that runs never see each other's journals or the user's.
struct StateHome {
    let path: String

    static func make() throws(FaultsError) -> StateHome {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-faults-state-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .setup("cannot create a journal directory \(path): \(error)")
        }
        return StateHome(path: path)
    }

    var environment: [String: String] { ["XDG_STATE_HOME": path] }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
