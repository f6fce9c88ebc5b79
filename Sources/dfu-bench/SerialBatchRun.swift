import Foundation

/// The serial batch: `devices` virtual devices, each on its own pseudo-terminal paced at `baud`
/// (`PacedSerialSim`, served in this process as `dfu sim --serve serial:PATH,baud=N` serves one),
/// and the built `dfu` flashing them all at once with `dfu batch PLAN --parallel devices --mode
/// upload-only --json`, one `serial:PATH,baud=N` row each: a fixture with a USB hub and a board on
/// each port. The wall time is the whole command's, process start included.
///
/// Upload-only, as the single-line runs, so the goodput is the line's and not the swap's. The
/// host's power source is not checked (`--allow-host-battery`): the bench measures lines, not
/// where it runs. Each run has a fresh `XDG_STATE_HOME`, so no journal marks a device done.
struct SerialBatchRun {
    let devices: Int
    let baud: Int
    let image: ImageFile
    let keyPath: String
    /// Nil = next to this executable.
    let dfuPath: String?

    func measure() async throws -> SerialBatchMeasurement {
        let dfu = try ChildProcess.dfu(dfuPath)
        var sims: [PacedSerialSim] = []
        do {
            for _ in 1 ... devices { sims.append(try await PacedSerialSim.start(baud: baud)) }
            let measurement = try run(dfu, on: sims)
            for sim in sims { await sim.stop() }
            return measurement
        } catch {
            for sim in sims { await sim.stop() }
            throw error
        }
    }

    private func run(_ dfu: String, on sims: [PacedSerialSim]) throws(BenchError) -> SerialBatchMeasurement {
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("dfu-bench-serial-batch-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        let plan = scratch.appendingPathComponent("plan.csv")
        let state = scratch.appendingPathComponent("state")
        let rows = ["device,image"] + sims.map { "\"serial:\($0.path),baud=\(baud)\",\"\(ChildProcess.absolute(image.path))\"" }
        do {
            try files.createDirectory(at: state, withIntermediateDirectories: true)
            try (rows.joined(separator: "\n") + "\n").write(to: plan, atomically: true, encoding: .utf8)
        } catch {
            throw .setup("cannot write the serial batch plan in \(scratch.path): \(error)")
        }
        let run = try ChildProcess(executable: dfu,
                                   arguments: ["batch", plan.path, "--parallel", String(devices), "--mode", "upload-only",
                                               "--allow-host-battery", "--json", "--key", ChildProcess.absolute(keyPath)],
                                   environment: ["XDG_STATE_HOME": state.path]).run()
        return SerialBatchMeasurement(devices: devices, baud: baud, image: image.name, imageBytes: image.bytes.count,
                                      ceiling: PacedSerialSim.ceiling(baud: baud), exitStatus: run.status,
                                      wallSeconds: run.wallSeconds, output: run.output, errors: run.errors)
    }
}
