import Foundation

/// A program the measuring tools run as a child, started the one way they start one: no standard
/// input, standard output on a pipe the caller reads while the child runs, standard error in a
/// temporary file read after it exits (so only one pipe is read while it runs and no full pipe can
/// stall it), this process's environment with `environment` laid over it.
public final class ChildLaunch: Sendable {
    public let process: Process
    /// The read end of the child's standard output; end of file once the child closed it.
    public let output: FileHandle
    private let errorFile: URL

    /// Why a child could not be started, in words for the tool's own error.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable arguments…`; `onExit` runs on Foundation's thread once the child is
    /// reaped (set before the start, so an exit cannot be missed).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                onExit: (@Sendable () -> Void)? = nil) throws(Failure) {
        let files = FileManager.default
        let errorFile = files.temporaryDirectory.appendingPathComponent("dfu-child-stderr-\(UUID().uuidString)")
        guard files.createFile(atPath: errorFile.path, contents: nil), let errors = try? FileHandle(forWritingTo: errorFile) else {
            throw Failure(description: "cannot create \(errorFile.path) for the standard error of \(executable)")
        }
        // The child holds its own descriptor; ours is not needed once it started (or failed to).
        defer { try? errors.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        if let onExit { process.terminationHandler = { _ in onExit() } }
        do {
            try process.run()
        } catch {
            try? files.removeItem(at: errorFile)
            throw Failure(description: "cannot start \(executable): \(error)")
        }
        // Only the child writes now: end of file on our side means it closed its stdout.
        try? pipe.fileHandleForWriting.close()
        self.process = process
        self.output = pipe.fileHandleForReading
        self.errorFile = errorFile
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// What the child wrote to standard error; call once it has exited. The file is removed.
    public func errors() -> String {
        let files = FileManager.default
        let text = String(decoding: files.contents(atPath: errorFile.path) ?? Data(), as: UTF8.self)
        try? files.removeItem(at: errorFile)
        return text
    }

    deinit {
        try? FileManager.default.removeItem(at: errorFile)
    }
}
