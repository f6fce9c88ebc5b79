import Foundation
import Transport

/// The batch part: the built `dfu` runs `dfu batch` over a generated plan of `devices` unpaced sim
/// rows, `--parallel` at once, with `--json`; the run counts the report lines it gets back.
///
/// `dfu` is the one next to this executable (the same build directory: `make bench` builds both).
/// Each run has a fresh `XDG_STATE_HOME`, so no journal from an earlier run marks a device done.
struct BatchRun {
    let devices: Int
    let parallel: Int
    let imagePath: String
    let keyPath: String
    /// Nil = next to this executable.
    let dfuPath: String?

    static let defaultImage = "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"
    static let defaultKey = "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"

    func measure() throws(BenchError) -> BatchMeasurement {
        let dfu = try dfuExecutable()
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("dfu-bench-batch-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        let plan = scratch.appendingPathComponent("plan.csv")
        let state = scratch.appendingPathComponent("state")
        let image = absolute(imagePath)
        var rows = ["device,image"]
        for index in 1 ... devices { rows.append("\"sim:id=bench\(index),timescale=0\",\"\(image)\"") }
        do {
            try files.createDirectory(at: state, withIntermediateDirectories: true)
            try (rows.joined(separator: "\n") + "\n").write(to: plan, atomically: true, encoding: .utf8)
        } catch {
            throw .setup("cannot write the batch plan in \(scratch.path): \(error)")
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: dfu)
        process.arguments = ["batch", plan.path, "--parallel", String(parallel), "--json", "--key", absolute(keyPath)]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        do {
            try process.run()
        } catch {
            throw .setup("cannot start \(dfu): \(error)")
        }
        // Read to the end before waiting, so a full pipe cannot stall the child.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let wall = (ContinuousClock.now - start).seconds
        return BatchMeasurement(devices: devices, parallel: parallel, exitStatus: process.terminationStatus,
                                wallSeconds: wall, output: String(decoding: data, as: UTF8.self))
    }

    private func dfuExecutable() throws(BenchError) -> String {
        if let dfuPath { return dfuPath }
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("dfu").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw .setup("no dfu next to dfu-bench (\(path)); build it with the same configuration "
                + "(make bench does: swift build -c release --product dfu), or pass --dfu PATH")
        }
        return path
    }

    /// The plan names files by absolute path: relative ones would be taken from the plan's directory.
    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
