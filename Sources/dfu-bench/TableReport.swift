import DFUCore
import Foundation
import ReportSupport

/// The human report: one row per profile with the medians, then what each row was made of.
///
///     profile           goodput  radio  flash  ceiling        ratio               erase wait …
///                          kB/s   kB/s   kB/s     kB/s                                     s …
///     2M-mtu498-7.5ms      97.1  163.2   97.6     97.6 flash  99.5 % of ceiling       11.0 …
enum TableReport {
    static func render(_ summaries: [ProfileSummary], image: ImageFile, runs: Int, machine: MachineInfo) -> String {
        var lines: [String] = []
        lines.append("dfu-bench: \(image.name) (\(image.bytes.count) bytes), median of \(runs) run\(runs == 1 ? "" : "s") per profile")
        lines.append("host: \(machine.cpuModel), \(machine.onlineCPUs) CPUs; link model in real time; kB = 1000 bytes")
        lines.append("goodput: image bytes acknowledged / time, from the reply to the first packet (after the erase) to the last reply")
        lines.append("")
        // The whole-update column only when it was measured (`--whole-update`).
        let updates = summaries.contains { $0.wholeUpdateSeconds != nil }
        var header = ["profile", "goodput", "radio", "flash", "ceiling", "", "ratio", "erase wait", "transfer", "CPU/MiB"]
        var units = ["", "kB/s", "kB/s", "kB/s", "kB/s", "", "", "s", "s", "ms"]
        if updates {
            header.append("update")
            units.append("s")
        }
        var rows = [header, units]
        for summary in summaries {
            let update = updates ? [summary.wholeUpdateSeconds.map { ColumnText.fixed($0, 1) } ?? "-"] : []
            rows.append([
                summary.profile,
                ColumnText.fixed(summary.goodput / 1000, 1),
                ColumnText.fixed(summary.radioCeiling / 1000, 1),
                ColumnText.fixed(summary.flashCeiling / 1000, 1),
                ColumnText.fixed(summary.ceiling / 1000, 1),
                summary.limitedBy,
                ColumnText.fixed(summary.ratio * 100, 1) + " % of ceiling",
                ColumnText.fixed(summary.eraseWaitSeconds, 2),
                ColumnText.fixed(summary.transferSeconds, 2),
                ColumnText.fixed(summary.cpuMillisecondsPerMiB, 0),
            ] + update)
        }
        lines += ColumnText.align(rows, leftAligned: [0, 5, 6])
        lines.append("")
        lines.append("per profile: link; chunk (image bytes of packet bytes, in writes); window; connect + params")
        for summary in summaries {
            lines.append("  \(summary.profile): \(summary.link); \(summary.chunkLayout); window \(summary.window); "
                + "connect \(ColumnText.fixed(summary.connectSeconds * 1000, 0)) ms")
        }
        if updates {
            lines.append("")
            lines.append("update: wall time of a whole UpdateEngine run (test-confirm), stages as the engine timed them")
            for summary in summaries {
                guard let stages = summary.wholeUpdateStageSeconds else { continue }
                let timed = UpdateStage.allCases.compactMap { stage in
                    stages[stage.rawValue].map { "\(stage.rawValue) \(ColumnText.fixed($0, 2)) s" }
                }
                lines.append("  \(summary.profile): " + timed.joined(separator: ", "))
            }
        }
        let resent = summaries.flatMap(\.runs).map(\.resentBytes).reduce(0, +)
        if resent > 0 { lines.append("note: \(resent) image bytes were sent more than once across all runs") }
        return lines.joined(separator: "\n")
    }

    /// One progress line per run, for stderr while the benchmark works.
    static func progress(_ profile: BenchProfile, run: Int, of runs: Int, _ measurement: RunMeasurement) -> String {
        "dfu-bench: \(profile.name) run \(run)/\(runs): \(ColumnText.fixed(measurement.goodput / 1000, 1)) kB/s, "
            + "\(ColumnText.fixed(measurement.ratio * 100, 1)) % of \(ColumnText.fixed(measurement.ceiling / 1000, 1)) kB/s (\(measurement.limitedBy)), "
            + "erase wait \(ColumnText.fixed(measurement.eraseWaitSeconds, 2)) s"
    }

    static func progress(_ profile: BenchProfile, run: Int, of runs: Int, _ update: WholeUpdateMeasurement) -> String {
        "dfu-bench: \(profile.name) run \(run)/\(runs): whole update \(ColumnText.fixed(update.wallSeconds, 1)) s"
    }
}
