import Foundation

/// Where the bench finds smpmgr (Intercreate's SMP manager, a Python tool), in this order:
/// `--smpmgr PATH`, `$SMPMGR`, `smpmgr` on `PATH`, then the virtual environments this project's
/// scripts use (`.venv/bin/smpmgr` in the current directory, `/tmp/smpvenv/bin/smpmgr`, which
/// scripts/gen-smp-serial-vectors.py sets up). The bench needs no Python: without smpmgr the
/// comparison is reported as not installed.
enum SmpmgrLocation {
    static let environmentVariable = "SMPMGR"
    static let virtualEnvironments = [".venv/bin/smpmgr", "/tmp/smpvenv/bin/smpmgr"]

    /// Nil: not installed anywhere the bench looks.
    static func find(given: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                     virtualEnvironments: [String] = virtualEnvironments) -> String? {
        if let given { return given }
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        let searchPath = (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/smpmgr" }
        return (searchPath + virtualEnvironments.map(ChildProcess.absolute))
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Where the bench looked, for the row that says smpmgr is not installed.
    static var searched: String {
        "$\(environmentVariable), PATH, " + virtualEnvironments.joined(separator: ", ")
    }
}
