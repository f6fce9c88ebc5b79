import ReportSupport

/// The serial part for the human report: per baud rate, the median goodput against the line's
/// ceiling after the console framing, and the target.
///
///     serial: SMP over a pseudo-terminal paced at the baud rate (…), console framing, upload-only, medians
///       115200 baud, blinky-….bin (49816 bytes): 8.2 kB/s = 96.9 % of 8.4 kB/s (target 90.0 %: met); 3 requests in flight
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

    static func progress(_ measurement: SerialMeasurement, run: Int, of runs: Int) -> String {
        "dfu-bench: serial \(measurement.baud) baud run \(run)/\(runs): \(kB(measurement.goodput)) kB/s, "
            + "\(percent(measurement.ratio)) of \(kB(measurement.ceiling)) kB/s"
    }

    private static func kB(_ rate: Double) -> String { ColumnText.fixed(rate / 1000, 1) }
    private static func percent(_ ratio: Double) -> String { ColumnText.fixed(ratio * 100, 1) + " %" }
}
