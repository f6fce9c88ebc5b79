import BlueZStandIn
import DFUCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `dfu` started in the background and read while it runs: `dfu sim --serve …` as a user starts
/// a server (the ready line carries the port), or a `dfu flash --json` a test stops at a chosen
/// line. Stdout is read line by line as it comes, stderr kept in a file. Waits are bounded by
/// `poll` timeouts, never slept. `stop` signals it and collects how it ended; `deinit` kills a
/// server a failed test left running (only this process, by its id).
final class LiveDFUProcess {
    let process: Process
    private let stdout: FileHandle
    private let stderrURL: URL
    private var buffered: [UInt8] = []
    private var stdoutClosed = false
    /// Every stdout line read so far.
    private(set) var lines: [String] = []

    struct Ended {
        var exitCode: Int32
        /// False when it died from a signal instead of exiting.
        var exited: Bool
        var stdoutLines: [String]
        var stderr: String
    }

    /// `dfu sim arguments…`.
    convenience init(sim arguments: [String]) throws {
        try self.init(["sim"] + arguments)
    }

    /// `dfu arguments…`, with `environment` added to the test process's own.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let binary = try DFUBinary.location.get()
        stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-sim-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: stderrURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: stderrURL.path])
        }
        let pipe = Pipe()
        process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = DFUTestEnvironment.base.merging(environment) { _, given in given }
        process.currentDirectoryURL = DFUBinary.repositoryRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        stdout = pipe.fileHandleForReading
        try process.run()
        // Only the child writes: end of file on our side then means it closed stdout (it exited).
        try? pipe.fileHandleForWriting.close()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: stderrURL)
    }

    /// The next stdout line, or nil when none comes within `timeout` seconds or stdout closed.
    func nextLine(timeout: TimeInterval = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                lines.append(line)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, !stdoutClosed else { return nil }
            var descriptor = pollfd(fd: stdout.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(stdout.fileDescriptor, &chunk, chunk.count)
            guard count > 0 else {
                stdoutClosed = true
                return nil
            }
            buffered += chunk.prefix(count)
        }
    }

    /// The ready line and the port it names; nil when the first line is something else or none
    /// comes.
    func ready(timeout: TimeInterval = 20) -> (line: String, port: UInt16)? {
        let prefix = "dfu sim: serving SMP over UDP on "
        guard let line = nextLine(timeout: timeout), line.hasPrefix(prefix) else { return nil }
        // "HOST:PORT (device …)": the port ends the first word.
        let address = line.dropFirst(prefix.count).prefix { $0 != " " }
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            return nil
        }
        return (line, port)
    }

    /// Sends `signal` and waits for the process to end.
    func stop(with signal: Int32 = SIGTERM, timeout: TimeInterval = 20) -> Ended {
        kill(process.processIdentifier, signal)
        return waitForExit(timeout: timeout)
    }

    /// Waits (at most `timeout` seconds, then kills it) for the process to end by itself.
    func waitForExit(timeout: TimeInterval = 20) -> Ended {
        let deadline = Date().addingTimeInterval(timeout)
        // Keep reading stdout meanwhile so the server never blocks on a full pipe.
        while process.isRunning && Date() < deadline && !stdoutClosed {
            _ = nextLine(timeout: 0.1)
        }
        if stdoutClosed {
            // It is exiting; give it the rest of the time to do so.
            while process.isRunning && Date() < deadline { _ = poll(nil, 0, 10) }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let status = ChildExit.wait(process) ?? ChildExit.Status(code: -1, exited: false)
        while nextLine(timeout: 1) != nil {}
        let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        return Ended(exitCode: status.code, exited: status.exited,
                     stdoutLines: lines, stderr: stderr)
    }
}
