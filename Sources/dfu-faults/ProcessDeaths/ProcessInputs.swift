import Foundation

/// What the process-death runs hand the `dfu` binary: where it is, and the files by absolute path
/// (a `dfu batch` plan reads relative paths from its own directory, and the journal stores them
/// absolute anyway). Found once, before the first run.
struct ProcessInputs: Sendable {
    let dfu: String
    let imagePath: String
    let keyPath: String
    let packagePath: String
    let nordicKeyPath: String
    /// Where the children run: the campaign's own directory.
    let directory: String

    static func load(_ options: FaultsOptions) throws(FaultsError) -> ProcessInputs {
        let directory = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }
        return ProcessInputs(dfu: try locateDFU(options.dfuPath), imagePath: absolute(options.imagePath),
                             keyPath: absolute(options.keyPath), packagePath: absolute(options.packagePath),
                             nordicKeyPath: absolute(options.nordicKeyPath), directory: directory)
    }

    /// `--dfu PATH`, else the `dfu` next to this executable (the same build directory: `make
    /// faults` builds both; a test bundle sits beside them too).
    static func locateDFU(_ given: String?) throws(FaultsError) -> String {
        if let given {
            guard FileManager.default.isExecutableFile(atPath: given) else {
                throw .setup("--dfu \(given) is no executable file")
            }
            return given
        }
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let next = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("dfu").path
        guard FileManager.default.isExecutableFile(atPath: next) else {
            throw .setup("no dfu next to dfu-faults (\(next)) for the process-death scenarios; build it with the same "
                + "configuration (make faults does: swift build -c release --product dfu), pass --dfu PATH, "
                + "or leave them out (--link memory --link udp --link serial)")
        }
        return next
    }
}
