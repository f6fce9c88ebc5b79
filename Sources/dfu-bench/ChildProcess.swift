import Foundation
import Harness
import Synchronization
import Transport

/// One run of another program the bench measures (`dfu batch`, `smpmgr`): its exit status, its
/// standard output and the wall time from start to exit. Standard error is kept apart, for the
/// reason a run failed.
struct ChildProcess {
    let executable: String
    let arguments: [String]
    /// Added to this process's environment.
    var environment: [String: String] = [:]
    /// After this long the child is sent SIGTERM (a tool that hangs must not hang the bench).
    var timeout: Duration?

    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
        let wallSeconds: Double
    }

    func run() throws(BenchError) -> Outcome {
        let start = ContinuousClock.now
        let child: ChildLaunch
        do throws(ChildLaunch.Failure) {
            child = try ChildLaunch(executable, arguments, environment: environment)
        } catch {
            throw .setup(error.description)
        }
        let exited = ExitFlag()
        if let timeout {
            // By the child's id, and only while its exit has not been seen.
            let pid = child.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) {
                exited.done.withLock { done in if !done { _ = kill(pid, SIGTERM) } }
            }
        }
        // Read to the end before waiting, so a full pipe cannot stall the child.
        let data = child.output.readDataToEndOfFile()
        child.process.waitUntilExit()
        exited.done.withLock { $0 = true }
        let wall = (ContinuousClock.now - start).seconds
        return Outcome(status: child.process.terminationStatus, output: String(decoding: data, as: UTF8.self),
                       errors: child.errors(), wallSeconds: wall)
    }

    /// The dfu next to this executable (the same build directory: `make bench` builds both), or
    /// `path` when given.
    static func dfu(_ path: String?) throws(BenchError) -> String {
        if let path { return path }
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let next = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("dfu").path
        guard FileManager.default.isExecutableFile(atPath: next) else {
            throw .setup("no dfu next to dfu-bench (\(next)); build it with the same configuration "
                + "(make bench does: swift build -c release --product dfu), or pass --dfu PATH")
        }
        return next
    }

    /// A path made absolute against the current directory (a plan names files by absolute path:
    /// relative ones would be taken from the plan's directory).
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// Whether a child's exit has been seen, shared with its timeout.
private final class ExitFlag: Sendable {
    let done = Mutex(false)
}
