import BlueZStandIn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `dfu` with a pseudo-terminal as its standard input and controlling terminal, as
/// a person at a shell runs it: util-linux `script` makes the pty and starts dfu in a session of its
/// own there, so dfu's `/dev/tty` is that pty. dfu's stdout and stderr go to files (redirected
/// inside the session), so the pty's output (`screen`) is only what dfu wrote to /dev/tty and what
/// the terminal echoed of our typing. The test answers prompts with `type`, after seeing them.
final class TerminalDFUProcess: @unchecked Sendable {
    static let scriptPath: String? = ["/usr/bin/script", "/bin/script"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private let process = Process()
    private let input = Pipe()
    private let scratch: URL
    private let screenURL: URL
    private let stdoutURL: URL
    private let stderrURL: URL
    private let arguments: [String]

    /// `stdoutOnTerminal`: dfu's stdout is the pty too (so `screen` shows its progress as a person
    /// sees it, carriage returns included), and `finish`'s run has no stdout.
    init(_ arguments: [String], bus: String, stdoutOnTerminal: Bool = false) throws {
        guard let script = Self.scriptPath else { throw CocoaError(.fileNoSuchFile) }
        let binary = try DFUBinary.location.get()
        self.arguments = arguments
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-tty-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        screenURL = scratch.appendingPathComponent("screen")
        stdoutURL = scratch.appendingPathComponent("stdout")
        stderrURL = scratch.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: screenURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let command = ([binary.path] + arguments).map(Self.quoted).joined(separator: " ")
            + (stdoutOnTerminal ? "" : " >" + Self.quoted(stdoutURL.path)) + " 2>" + Self.quoted(stderrURL.path)
        process.executableURL = URL(fileURLWithPath: script)
        // -q: no banner; -e: exit with dfu's code; -c: run this; /dev/null: no typescript file.
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = DFUBinary.repositoryRoot
        process.environment = DFUTestEnvironment.base.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus]) { _, given in given }
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: screenURL)
        process.standardError = FileHandle.nullDevice
    }

    deinit {
        if ChildExit.wait(process, timeout: 0) == nil { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: scratch)
    }

    func start() throws { try process.run() }

    /// What the terminal showed so far.
    var screen: String { (try? String(contentsOf: screenURL, encoding: .utf8)) ?? "" }

    /// Waits until the terminal shows `text`; false if it did not within `timeout` or dfu ended.
    func waitFor(_ text: String, timeout: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if screen.contains(text) { return true }
            if ChildExit.wait(process, timeout: 0) != nil { return screen.contains(text) }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Types a line at the terminal.
    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for dfu to end (killed past `timeout`), and what it did.
    func finish(timeout: Duration = .seconds(60)) async throws -> (run: DFURun, screen: String) {
        let pid = process.processIdentifier
        let killer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
        defer { killer.cancel() }
        let status = await ChildExit.ended(process)
        try? input.fileHandleForWriting.close()
        let run = DFURun(arguments: arguments, exitCode: status.code, exited: status.exited,
                         stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
                         stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
        return (run, screen)
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
