import BlueZStandIn
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
        let capture = try DFUProcessCapture(arguments, environment: environment)
        let process = capture.process
        try process.run()
        whileRunning?(process)

        if ChildExit.wait(process, timeout: timeout) == nil {
            process.terminate()
            if ChildExit.wait(process, timeout: 0.2) == nil { kill(process.processIdentifier, SIGKILL) }
        }
        return try capture.result()
    }

    /// `run`, awaited without blocking a thread: a test that plays a port in this process (a
    /// pseudo-terminal, a bootloader answering pings), or runs beside one, must leave the
    /// cooperative pool free while dfu runs. Killed after `timeout`.
    static func awaiting(_ arguments: [String], timeout: Duration = .seconds(60),
                         environment: [String: String] = [:]) async throws -> DFURun {
        let capture = try DFUProcessCapture(arguments, environment: environment)
        try capture.process.run()
        let pid = capture.process.processIdentifier
        let killer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
        defer { killer.cancel() }
        _ = await ChildExit.ended(capture.process)
        return try capture.result()
    }
}

/// One `dfu` process, not yet started, set up to run from the repository root with `environment`
/// added to the test process's own, its output going to two files (not pipes, which dfu could fill
/// and stall on) in a fresh scratch directory that goes away with this object.
final class DFUProcessCapture {
    let process = Process()
    private let arguments: [String]
    private let scratch: URL
    private let stdoutURL: URL
    private let stderrURL: URL
    private let handles: [FileHandle]

    init(_ arguments: [String], environment: [String: String]) throws {
        let binary = try DFUBinary.location.get()
        self.arguments = arguments
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        stdoutURL = scratch.appendingPathComponent("stdout")
        stderrURL = scratch.appendingPathComponent("stderr")
        var handles: [FileHandle] = []
        do {
            for url in [stdoutURL, stderrURL] {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
                }
                handles.append(try FileHandle(forWritingTo: url))
            }
        } catch {
            for handle in handles { try? handle.close() }
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
        self.handles = handles
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = DFUBinary.repositoryRoot
        process.environment = DFUTestEnvironment.base.merging(environment) { _, given in given }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handles[0]
        process.standardError = handles[1]
    }

    deinit {
        for handle in handles { try? handle.close() }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// What the run did, once the process has ended (this waits for it to be reaped).
    func result() throws -> DFURun {
        let status = ChildExit.wait(process) ?? ChildExit.Status(code: -1, exited: false)
        return DFURun(
            arguments: arguments,
            exitCode: status.code,
            exited: status.exited,
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
