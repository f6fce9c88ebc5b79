import ReportSupport

/// The fleet and batch parts for the human report: the fleet's aggregate against the adapter's
/// capacity, then one row per device; the batch's report lines, failures and times.
///
///     aggregate 162.5 kB/s = 92.6 % of the adapter's capacity 175.5 kB/s (target 80.0 %: met); …
enum FleetTableReport {
    static func render(_ fleet: FleetMeasurement) -> String {
        var lines: [String] = []
        lines.append("fleet: \(fleet.devices) devices at once on one modelled adapter (one radio, connection events in turn)")
        lines.append("  \(fleet.profile): \(fleet.link); \(fleet.summary)")
        lines.append("  aggregate \(kB(fleet.aggregateGoodput)) kB/s = \(percent(fleet.ratio)) of the adapter's capacity "
            + "\(kB(fleet.capacity)) kB/s (target \(percent(fleet.target)): \(fleet.metTarget ? "met" : "MISSED")); "
            + "\(fleet.streamedBytes) bytes in \(ColumnText.fixed(fleet.wallSeconds, 2)) s, first to last byte")
        lines.append("  fairness spread (fastest - slowest) / mean: \(percent(fleet.fairnessSpread))")
        lines.append("")
        var rows = [["device", "goodput", "fair share", "transfer", "erase wait"], ["", "kB/s", "", "s", "s"]]
        for (index, device) in fleet.perDevice.enumerated() {
            rows.append([String(index + 1), kB(device.goodput), percent(device.fairShareRatio),
                         ColumnText.fixed(device.transferSeconds, 2), ColumnText.fixed(device.eraseWaitSeconds, 2)])
        }
        lines += ColumnText.align(rows, leftAligned: [0]).map { "  " + $0 }
        let resent = fleet.perDevice.map(\.resentBytes).reduce(0, +)
        if resent > 0 { lines.append("  note: \(resent) image bytes were sent more than once") }
        return lines.joined(separator: "\n")
    }

    static func render(_ batch: BatchMeasurement) -> String {
        var lines: [String] = []
        lines.append("batch: dfu batch over \(batch.devices) unpaced sim devices, --parallel \(batch.parallel), --json")
        lines.append("  report lines \(batch.reportLines) of \(batch.devices) (\(batch.lostReports) lost), "
            + "failures \(batch.failures), exit status \(batch.exitStatus); dfu's summary: "
            + "\(batch.summaryDevices.map(String.init) ?? "missing") devices, \(batch.summarySucceeded.map(String.init) ?? "-") succeeded, "
            + "\(batch.summaryFailed.map(String.init) ?? "-") failed")
        lines.append("  wall \(ColumnText.fixed(batch.wallSeconds, 2)) s, \(ColumnText.fixed(batch.secondsPerDevice * 1000, 0)) ms per device; "
            + "median device \(ColumnText.fixed(batch.medianDeviceSeconds, 2)) s (\(batch.passed ? "passed" : "FAILED"))")
        return lines.joined(separator: "\n")
    }

    static func progress(_ fleet: FleetMeasurement) -> String {
        "dfu-bench: \(fleet.profile): aggregate \(kB(fleet.aggregateGoodput)) kB/s, \(percent(fleet.ratio)) of "
            + "\(kB(fleet.capacity)) kB/s, spread \(percent(fleet.fairnessSpread))"
    }

    static func progress(_ batch: BatchMeasurement) -> String {
        "dfu-bench: batch of \(batch.devices): \(batch.reportLines) reports, \(batch.failures) failed, "
            + "\(ColumnText.fixed(batch.wallSeconds, 1)) s"
    }

    private static func kB(_ rate: Double) -> String { ColumnText.fixed(rate / 1000, 1) }
    private static func percent(_ ratio: Double) -> String { ColumnText.fixed(ratio * 100, 1) + " %" }
}
