import Foundation
import Glibc
import Harness
import Synchronization
import Transport

/// One `dfu` the campaign runs as a child process, as a user runs it: its NDJSON stdout read line
/// by line as it comes (each line handed to `onLine` at once, on the reading thread), stderr kept
/// in a file, the exit awaited without blocking the cooperative pool. `kill()` sends SIGKILL, by
/// the child's id and only while it has not been reaped (a reaped id may be another process's).
/// Started as every measuring tool starts a child (`Harness.ChildLaunch`).
final class DFUChild: Sendable {
    /// How the child ended.
    struct Ended: Sendable {
        /// The exit code; nil when a signal ended it.
        let exitCode: Int32?
        /// The signal that ended it; nil when it exited.
        let signal: Int32?
        /// `kill()` sent the SIGKILL that ended it.
        let killedByUs: Bool
        /// Still running after the hang guard: killed then, and counted as hung.
        let hung: Bool
        let lines: [String]
        let stderr: String
        let wallSeconds: Double
    }

    private struct State {
        var pid: Int32?
        var reaped = false
        var killed = false
    }

    private let state = Mutex(State())
    private let lines = Mutex<[String]>([])
    private let terminated = OneShot()
    private let drained = OneShot()
    private let onLine: @Sendable (String) -> Void

    init(onLine: @escaping @Sendable (String) -> Void = { _ in }) {
        self.onLine = onLine
    }

    /// Sends SIGKILL once, if the child runs; true when this call sent it.
    @discardableResult
    func kill() -> Bool {
        state.withLock { state in
            guard let pid = state.pid, !state.reaped, !state.killed else { return false }
            state.killed = true
            return Glibc.kill(pid, SIGKILL) == 0
        }
    }

    /// Starts `executable arguments…` in `directory`, with `environment` added to this process's;
    /// `started` runs once the child has its id, so that whatever aims a kill at it can fire.
    func run(_ executable: String, _ arguments: [String], environment: [String: String], directory: String,
             hangGuard: Duration, started: @Sendable () -> Void = {}) async throws(FaultsError) -> Ended {
        let start = ContinuousClock.now
        let launch: ChildLaunch
        do throws(ChildLaunch.Failure) {
            launch = try ChildLaunch(executable, arguments, environment: environment, directory: directory) { [self] in
                state.withLock { $0.reaped = true }
                terminated.happen()
            }
        } catch {
            throw .setup(error.description)
        }
        state.withLock { $0.pid = launch.processIdentifier }
        started()
        startReading(launch.output)

        let finished: Bool? = await HangGuard.run(limit: hangGuard) { [terminated] in
            await terminated.wait()
            return true
        }
        let hung = finished == nil
        if hung {
            kill()
            await terminated.wait()
        }
        await drained.wait()
        let wall = (ContinuousClock.now - start).seconds
        let killed = state.withLock { $0.killed }
        let process = launch.process
        let bySignal = process.terminationReason == .uncaughtSignal
        return Ended(exitCode: bySignal ? nil : process.terminationStatus, signal: bySignal ? process.terminationStatus : nil,
                     killedByUs: killed && bySignal && process.terminationStatus == SIGKILL && !hung, hung: hung,
                     lines: lines.withLock { $0 }, stderr: launch.errors(), wallSeconds: wall)
    }

    /// Reads stdout to its end on a thread of its own (a blocking read must not hold one of the
    /// cooperative pool's few threads), handing each whole line on as it comes.
    private func startReading(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var buffered: [UInt8] = []
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffered += data
                while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffered[..<newline], as: UTF8.self)
                    buffered.removeSubrange(...newline)
                    lines.withLock { $0.append(line) }
                    onLine(line)
                }
            }
            if !buffered.isEmpty {
                let line = String(decoding: buffered, as: UTF8.self)
                lines.withLock { $0.append(line) }
                onLine(line)
            }
            drained.happen()
        }
        thread.start()
    }
}
