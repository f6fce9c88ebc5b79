import ReportSupport

/// The Nordic table: one row per Nordic profile with the medians, then where each row's time went
/// (per burst kind, measured against the model, in the median run).
enum NordicTableReport {
    static func render(_ summaries: [NordicProfileSummary], package: NordicPackageFile, runs: Int) -> String {
        var lines: [String] = []
        lines.append("Nordic Secure DFU: \(package.name) (\(package.firmware.count) firmware bytes), median of \(runs) run\(runs == 1 ? "" : "s") per profile")
        lines.append("goodput: firmware bytes / time, from the first data object's Create to the final Execute's answer")
        lines.append("radio: the packets at the link's write-command rate; ceiling: the same exchanges (objects, Control Point")
        lines.append("round trips, PRN receipts) at their minimum time on the modelled link (docs/performance.md); no flash time modelled")
        lines.append("")
        var rows = [["profile", "goodput", "radio", "ceiling", "ratio", "transfer", "model"],
                    ["", "kB/s", "kB/s", "kB/s", "", "s", "s"]]
        for summary in summaries {
            rows.append([
                summary.profile,
                ColumnText.fixed(summary.goodput / 1000, 1),
                ColumnText.fixed(summary.radioCeiling / 1000, 1),
                ColumnText.fixed(summary.ceiling / 1000, 1),
                ColumnText.fixed(summary.ratio * 100, 1) + " % of ceiling",
                ColumnText.fixed(summary.transferSeconds, 3),
                ColumnText.fixed(summary.modelSeconds, 3),
            ])
        }
        lines += ColumnText.align(rows, leftAligned: [0, 4])
        lines.append("")
        lines.append("per profile: link; packets; objects; Control Point requests and PRN receipts; per burst kind: count, measured / model ms each (median run)")
        for summary in summaries {
            guard let run = summary.medianRun else { continue }
            let kinds = ["create", "packets", "execute"] + run.bursts.keys.filter { !["create", "packets", "execute"].contains($0) }.sorted()
            let bursts = kinds.compactMap { kind -> String? in
                guard let time = run.bursts[kind], time.count > 0 else { return nil }
                let each = Double(time.count)
                return "\(kind) \(time.count)× \(ColumnText.fixed(time.measuredSeconds * 1000 / each, 1))/\(ColumnText.fixed(time.modelSeconds * 1000 / each, 1))"
            }
            lines.append("  \(summary.profile): \(summary.link); \(run.packets)×≤\(run.packetSize) B; \(run.objects) objects; "
                + "\(run.controlPointRequests) requests, \(run.receipts) receipts; " + bursts.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    static func progress(_ profile: NordicBenchProfile, run: Int, of runs: Int, _ measurement: NordicRunMeasurement) -> String {
        "dfu-bench: \(profile.name) run \(run)/\(runs): \(ColumnText.fixed(measurement.goodput / 1000, 1)) kB/s, "
            + "\(ColumnText.fixed(measurement.ratio * 100, 1)) % of \(ColumnText.fixed(measurement.ceiling / 1000, 1)) kB/s"
    }
}
