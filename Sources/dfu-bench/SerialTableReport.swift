import ReportSupport

/// The serial part for the human report: per baud rate, the median goodput against the line's
/// ceiling after the console framing, and the target; then the batch of ports and smpmgr beside
/// dfu.
///
///     serial: SMP over a pseudo-terminal paced at the baud rate (…), console framing, upload-only, medians
///       115200 baud, blinky-….bin (49816 bytes): 8.2 kB/s = 96.9 % of 8.4 kB/s (target 90.0 %: met); 3 requests in flight
///       batch: 8 pseudo-terminals at 115200 baud, dfu batch --parallel 8 --mode upload-only, …: 8 of 8 ok, exit status 0 (passed)
///         wall 6.13 s (the whole command); per device 8.2 kB/s median, slowest 8.2 kB/s (…), of 8.4 kB/s a line
///         aggregate 65.0 kB/s = 96.3 % of 8 × 8.4 kB/s = 67.5 kB/s
///       smpmgr 0.19.1 beside dfu, … (or: smpmgr: not installed (looked at …))
///         115200 baud, blinky-….bin (49816 bytes): dfu 6.00 s, 8.3 kB/s (98.5 %) | smpmgr 9.69 s, 5.1 kB/s (61.0 %); …
enum SerialTableReport {
    static let heading = "serial: SMP over a pseudo-terminal paced at the baud rate (dfu sim --serve serial:), console "
        + "framing, upload-only, medians"

    static func row(_ summary: SerialSummary) -> String {
        let window = summary.runs.first?.window ?? 0
        let ceiling = summary.runs.first?.ceiling ?? 0
        let bytes = summary.runs.first?.bytes ?? 0
        return "  \(summary.baud) baud, \(summary.image) (\(bytes) bytes): \(kB(summary.medianGoodput)) kB/s = "
            + "\(percent(summary.medianRatio)) of \(kB(ceiling)) kB/s (target \(percent(SerialSummary.target)): "
            + "\(summary.metTarget ? "met" : "MISSED")); \(window) request\(window == 1 ? "" : "s") in flight"
    }

    /// The serial batch: what dfu batch was asked, whether every device is ok, the times, each
    /// device's goodput and the aggregate against every line's ceiling together.
    static func render(_ batch: SerialBatchMeasurement) -> String {
        var lines: [String] = []
        lines.append("  batch: \(batch.devices) pseudo-terminals at \(batch.baud) baud, dfu batch --parallel \(batch.devices) "
            + "--mode upload-only, \(batch.image) (\(batch.imageBytes) bytes each): \(batch.succeeded) of \(batch.devices) ok, "
            + "exit status \(batch.exitStatus) (\(batch.passed ? "passed" : "FAILED"))")
        if let problem = batch.problem { lines.append("    problem: \(problem)") }
        lines.append("    wall \(ColumnText.fixed(batch.wallSeconds, 2)) s (the whole command); per device \(kB(batch.medianGoodput)) kB/s "
            + "median, slowest \(kB(batch.slowestGoodput)) kB/s (its bytes over its own run: connect, state read, upload), "
            + "of \(kB(batch.ceiling)) kB/s a line")
        lines.append("    aggregate \(kB(batch.aggregateGoodput)) kB/s = \(percent(batch.ratio)) of \(batch.devices) × "
            + "\(kB(batch.ceiling)) kB/s = \(kB(batch.ceiling * Double(batch.devices))) kB/s")
        var rows = [["device", "result", "goodput", "share", "run"], ["", "", "kB/s", "of a line", "s"]]
        for (index, device) in batch.perDevice.enumerated() {
            rows.append([String(index + 1), device.ok ? "ok" : "FAILED", kB(device.goodput),
                         percent(batch.ceiling > 0 ? device.goodput / batch.ceiling : 0), ColumnText.fixed(device.seconds, 2)])
        }
        lines += ColumnText.align(rows, leftAligned: [0, 1]).map { "    " + $0 }
        return lines.joined(separator: "\n")
    }

    /// smpmgr beside dfu at each baud rate, or that it is not installed.
    static func render(_ comparison: SmpmgrComparison, dfu summaries: [SerialSummary]) -> String {
        guard comparison.installed else {
            return "  smpmgr: not installed (looked at \(SmpmgrLocation.searched); --smpmgr PATH names one)"
        }
        var lines = ["  smpmgr \(comparison.version ?? "(version unknown)") beside dfu, same paced sim and image, one run each "
            + "(upload time: dfu's transfer stage, median; smpmgr's log from its MCUmgr parameters reply to \"Upload complete\", "
            + "its default 128-byte lines × 2)"]
        for run in comparison.runs {
            var row = "    \(run.baud) baud, \(run.image) (\(run.bytes) bytes): "
            if let summary = summaries.first(where: { $0.baud == run.baud }), summary.medianGoodput > 0 {
                row += "dfu \(ColumnText.fixed(Double(run.bytes) / summary.medianGoodput, 2)) s, \(kB(summary.medianGoodput)) kB/s "
                    + "(\(percent(summary.medianRatio))) | "
            }
            if let seconds = run.uploadSeconds, let goodput = run.goodput, let ratio = run.ratio {
                row += "smpmgr \(ColumnText.fixed(seconds, 2)) s, \(kB(goodput)) kB/s (\(percent(ratio))); "
                    + "its whole command \(ColumnText.fixed(run.wallSeconds, 2)) s"
            } else {
                row += "smpmgr: no upload time (\(run.problem ?? "unknown"))"
            }
            lines.append(row)
        }
        return lines.joined(separator: "\n")
    }

    static func progress(_ batch: SerialBatchMeasurement) -> String {
        "dfu-bench: serial batch of \(batch.devices) at \(batch.baud) baud: \(batch.succeeded) ok, "
            + "\(ColumnText.fixed(batch.wallSeconds, 2)) s, aggregate \(kB(batch.aggregateGoodput)) kB/s = \(percent(batch.ratio))"
    }

    static func progress(_ run: SmpmgrMeasurement) -> String {
        "dfu-bench: smpmgr at \(run.baud) baud: " + (run.uploadSeconds.map { "\(ColumnText.fixed($0, 2)) s" } ?? (run.problem ?? "no time"))
    }

    static func progress(_ measurement: SerialMeasurement, run: Int, of runs: Int) -> String {
        "dfu-bench: serial \(measurement.baud) baud run \(run)/\(runs): \(kB(measurement.goodput)) kB/s, "
            + "\(percent(measurement.ratio)) of \(kB(measurement.ceiling)) kB/s"
    }

    private static func kB(_ rate: Double) -> String { ColumnText.fixed(rate / 1000, 1) }
    private static func percent(_ ratio: Double) -> String { ColumnText.fixed(ratio * 100, 1) + " %" }
}
