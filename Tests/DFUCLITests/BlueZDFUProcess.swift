import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `dfu` against a bus of the test's own (`DBUS_SYSTEM_BUS_ADDRESS`) without
/// blocking the caller's thread: the BlueZ stand-in that answers dfu lives in the test process and
/// needs the cooperative pool (2 threads here) while dfu runs, so this awaits the exit through a
/// termination handler instead of polling as `DFURun.run` does. Past `timeout` the process is
/// killed (SIGKILL: a child of the test binary inherits its blocked SIGTERM) and reported as not
/// exited. Only the process started here is ever signalled.
enum BlueZDFUProcess {
    static func run(_ arguments: [String], bus: String, timeout: Duration = .seconds(60)) async throws -> DFURun {
        let binary = try DFUBinary.location.get()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-bluez-e2e-\(UUID().uuidString)")
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
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle

        let (ended, ending) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            ending.yield()
            ending.finish()
        }
        try process.run()
        let pid = process.processIdentifier
        let killer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
        for await _ in ended {}
        killer.cancel()
        process.waitUntilExit()
        return DFURun(arguments: arguments, exitCode: process.terminationStatus,
                      exited: process.terminationReason == .exit,
                      stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self))
    }
}
