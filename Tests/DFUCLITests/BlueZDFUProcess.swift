import BlueZStandIn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `dfu` against a bus of the test's own (`DBUS_SYSTEM_BUS_ADDRESS`) without
/// blocking the caller's thread: the BlueZ stand-in that answers dfu lives in the test process and
/// needs the cooperative pool (2 threads here) while dfu runs, so this awaits the exit without
/// blocking a thread (`ChildExit.ended`) instead of waiting as `DFURun.run` does. Past `timeout`
/// the process is killed (SIGKILL: a child of the test binary inherits its blocked SIGTERM) and
/// reported as not exited. Only the process started here is ever signalled.
enum BlueZDFUProcess {
    /// `whileRunning` gets dfu's process id once it started (to signal it, say); dfu's exit is
    /// awaited after it returns.
    static func run(_ arguments: [String], bus: String, timeout: Duration = .seconds(60),
                    environment: [String: String] = [:],
                    whileRunning: (pid_t) async throws -> Void = { _ in }) async throws -> DFURun {
        let capture = try DFUProcessCapture(arguments, environment: environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus]) { _, bus in bus })
        let process = capture.process
        try process.run()
        let pid = process.processIdentifier
        let killer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
        defer { killer.cancel() }
        do {
            try await whileRunning(pid)
        } catch {
            kill(pid, SIGKILL)  // never leave a dfu behind
            _ = await ChildExit.ended(process)
            throw error
        }
        _ = await ChildExit.ended(process)
        return try capture.result()
    }
}
