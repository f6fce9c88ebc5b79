import Foundation

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
        let dfu = try ChildProcess.dfu(dfuPath)
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("dfu-bench-batch-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        let plan = scratch.appendingPathComponent("plan.csv")
        let state = scratch.appendingPathComponent("state")
        let image = ChildProcess.absolute(imagePath)
        var rows = ["device,image"]
        for index in 1 ... devices { rows.append("\"sim:id=bench\(index),timescale=0\",\"\(image)\"") }
        do {
            try files.createDirectory(at: state, withIntermediateDirectories: true)
            try (rows.joined(separator: "\n") + "\n").write(to: plan, atomically: true, encoding: .utf8)
        } catch {
            throw .setup("cannot write the batch plan in \(scratch.path): \(error)")
        }
        let run = try ChildProcess(executable: dfu,
                                   arguments: ["batch", plan.path, "--parallel", String(parallel), "--json",
                                               "--key", ChildProcess.absolute(keyPath)],
                                   environment: ["XDG_STATE_HOME": state.path]).run()
        return BatchMeasurement(devices: devices, parallel: parallel, exitStatus: run.status,
                                wallSeconds: run.wallSeconds, output: run.output)
    }
}
