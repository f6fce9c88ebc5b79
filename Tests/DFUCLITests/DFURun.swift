import Foundation

/// What one run of `dfu` did.
struct DFURun: Sendable {
    var arguments: [String]
    var exitCode: Int32
    /// False when dfu died from a signal instead of exiting.
    var exited: Bool
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLastEmpty() }
    var output: String { stdout + stderr }

    /// Runs `dfu arguments…` from the repository root and waits for it (at most `timeout` seconds,
    /// then it is killed and the run reported as not exited). `environment` adds to (or replaces
    /// entries of) the test process's own environment.
    static func run(_ arguments: [String], timeout: TimeInterval = 60, environment: [String: String] = [:],
                    whileRunning: ((Process) -> Void)? = nil) throws -> DFURun {
        let binary = try DFUBinary.location.get()
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("dfu-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutURL = scratch.appendingPathComponent("stdout")
        let stderrURL = scratch.appendingPathComponent("stderr")
        for url in [stdoutURL, stderrURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
        let stderrHandle = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdoutHandle.close()
            try? stderrHandle.close()
        }

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = DFUBinary.repositoryRoot
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        try process.run()
        whileRunning?(process)

        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        if process.isRunning {
            process.terminate()
            Thread.sleep(forTimeInterval: 0.2)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()

        return DFURun(
            arguments: arguments,
            exitCode: process.terminationStatus,
            exited: process.terminationReason == .exit,
            stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self))
    }
}

private extension Array where Element == Substring {
    /// Lines of text that ends with a newline, without the empty string after the last one.
    func dropLastEmpty() -> [String] {
        var lines = map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
