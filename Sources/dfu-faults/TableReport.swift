import Foundation
import ReportSupport

/// The report as text: a header saying what ran where, one row per scenario, every unexpected
/// outcome with what reproduces it, and what each scenario injects.
enum TableReport {
    static func render(_ summaries: [ScenarioSummary], settings: CampaignSettings, nordic: NordicInputs?,
                       wallSeconds: Double) -> String {
        var lines: [String] = []
        let lastSeed = settings.seed + UInt64(settings.runsPerScenario - 1)
        lines.append("dfu-faults: \(settings.image) (\(settings.imageBytes) bytes, \(settings.imageVersion)) onto the virtual device at 1.0.0, "
            + "test-confirm, \(settings.runsPerScenario) runs per scenario, seeds \(settings.seed)…\(lastSeed)")
        lines.append("host: \(settings.machine.cpuModel), \(settings.machine.onlineCPUs) CPUs; model time scale \(settings.timeScale) "
            + "(\(ColumnText.fixed(1 / settings.timeScale, 0))x real time); hang guard \(ColumnText.fixed(settings.hangGuardSeconds, 0)) s real per update; "
            + "campaign \(ColumnText.fixed(wallSeconds, 0)) s")
        lines.append("completed: exit 0 and the device's own slot 0 holds the new image, confirmed; "
            + "extra bytes: image bytes sent beyond one copy")
        if let nordic {
            lines.append("nordic-*: \(nordic.packageName) (firmware \(nordic.firmwareBytes) bytes, init packet \(nordic.initPacketBytes), "
                + "fw_version \(nordic.version)) onto the virtual nRF52 at app_version 1; completed: exit 0 and the device runs "
                + "fw_version \(nordic.version); extra bytes: Packet bytes beyond one init packet and one firmware")
        }
        lines.append("")
        var rows = [
            ["scenario", "runs", "completed", "expected failures", "unexpected", "extra bytes", "", "resumes", "model time"],
            ["", "", "", "", "", "median", "max", "median", "median s"],
        ]
        for summary in summaries {
            rows.append([
                summary.scenario.name,
                String(summary.runs),
                String(summary.completed),
                expectedText(summary),
                String(summary.unexpected.count),
                summary.extraBytesMedian.map { ColumnText.fixed($0, 0) } ?? "-",
                summary.extraBytesMax.map(String.init) ?? "-",
                summary.resumesMedian.map { ColumnText.fixed($0, $0 == $0.rounded() ? 0 : 1) } ?? "-",
                summary.modelSecondsMedian.map { ColumnText.fixed($0, 1) } ?? "-",
            ])
        }
        lines += ColumnText.align(rows, leftAligned: [0, 3])
        lines.append("")
        let unexpected = summaries.flatMap { summary in summary.unexpected.map { (summary.scenario, $0) } }
        if unexpected.isEmpty {
            lines.append("unexpected outcomes: none")
        } else {
            let file = nordic.map { "\(settings.image) (nordic-*: \($0.packageName))" } ?? settings.image
            lines.append("unexpected outcomes (\(unexpected.count)); each replays with "
                + "`dfu flash \(file) --key KEY --device '<device>'`:")
            for (scenario, record) in unexpected { lines.append("  " + describe(record, in: scenario)) }
        }
        lines.append("")
        lines.append("scenarios: name (expected outcome): what the device does")
        for summary in summaries {
            lines.append("  \(summary.scenario.name) (\(summary.scenario.expectation.text)): \(summary.scenario.summary)")
        }
        return lines.joined(separator: "\n")
    }

    /// `exit 7 ×20, rerun ok` / `exit 8 ×20` / `-`.
    private static func expectedText(_ summary: ScenarioSummary) -> String {
        let failures = summary.expectedFailures
        guard !failures.isEmpty else { return "-" }
        let suffix = summary.scenario.expectation.endsWithRerun ? ", rerun ok" : ""
        return failures.map { "exit \($0.status) ×\($0.count)" }.joined(separator: ", ") + suffix
    }

    /// One line for an unexpected run: where, how to reproduce, what happened.
    static func describe(_ record: RunRecord, in scenario: Scenario) -> String {
        "\(scenario.name) run \(record.run) (seed \(record.seed), faults \(record.faults), device '\(record.device)'): "
            + (record.outcome.unexpectedReason ?? "")
    }

    /// One progress line per scenario, for stderr while the campaign works.
    static func progress(_ summary: ScenarioSummary) -> String {
        "dfu-faults: \(summary.scenario.name): \(summary.runs) runs, \(summary.completed) completed, "
            + "\(summary.unexpected.count) unexpected (\(ColumnText.fixed(summary.wallSeconds, 1)) s)"
    }
}
