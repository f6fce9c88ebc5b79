import Foundation
import Testing

/// SIGINT and SIGTERM end dfu with exit code 130. dfu is held in a blocking open() of a FIFO that
/// nobody writes, so the signal arrives while it is busy.
@Suite struct SignalTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func signalEndsRunWithExitCode130(signal: Int32) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dfu-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("image.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)

        let run = try DFURun.run(["verify", fifo], timeout: 20) { process in
            Self.waitUntilBlocked(process)
            kill(process.processIdentifier, signal)
        }
        #expect(run.exited, "dfu died from the signal instead of exiting")
        #expect(run.exitCode == 130)
        #expect(run.stderr.contains("dfu: interrupted"))
    }

    /// Until the process sleeps in the kernel (state S in /proc/PID/stat), or two seconds.
    private static func waitUntilBlocked(_ process: Process) {
        let statPath = "/proc/\(process.processIdentifier)/stat"
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            if let stat = try? String(contentsOfFile: statPath, encoding: .utf8),
               let close = stat.lastIndex(of: ")"),
               stat[stat.index(after: close)...].hasPrefix(" S") {
                Thread.sleep(forTimeInterval: 0.1)  // blocked; give the handler install a margin
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
