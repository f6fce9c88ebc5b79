import Foundation
import ReportSupport

/// The report as text: a header saying what ran where, one row per scenario, every unexpected
/// outcome with what reproduces it, and what each scenario injects.
enum TableReport {
    /// Ends with `CampaignTotals.lastLine`, the line `make faults` and `make test` look for.
    static func render(_ summaries: [ScenarioSummary], settings: CampaignSettings, nordic: NordicInputs?,
                       wallSeconds: Double) -> String {
        var lines: [String] = []
        let most = summaries.map(\.runs).max() ?? settings.runsPerScenario
        let lastSeed = settings.seed + UInt64(max(most, 1) - 1)
        let probe = Scenario.catalogue.first { $0.link == .udp }
        let linkRuns = probe.map { $0.runs(given: settings.runsPerScenario) } ?? 1
        lines.append("dfu-faults: \(settings.image) (\(settings.imageBytes) bytes, \(settings.imageVersion)) onto the virtual device at 1.0.0, "
            + "test-confirm; --runs \(settings.runsPerScenario): that many runs per memory-link SMP scenario, \(linkRuns) per udp-/serial-/bluez-/process-death one, "
            + "\(settings.runsPerScenario * 2) per in-memory nordic- one" + costlyText(summaries, runs: settings.runsPerScenario)
            + "; seeds \(settings.seed)…\(lastSeed)")
        lines.append("host: \(settings.machine.cpuModel), \(settings.machine.onlineCPUs) CPUs; model time scale \(settings.timeScale) "
            + "(\(ColumnText.fixed(1 / settings.timeScale, 0))x real time); hang guard \(ColumnText.fixed(settings.hangGuardSeconds, 0)) s real per update; "
            + "campaign \(ColumnText.fixed(wallSeconds, 0)) s")
        lines.append("completed: exit 0 and the device's own slot 0 holds the new image, confirmed; "
            + "extra bytes: image bytes sent beyond one copy")
        if summaries.contains(where: { ($0.scenario.link == .udp || $0.scenario.link == .serial) && $0.scenario.nordic == nil }) {
            lines.append("udp-*: a real UDP socket to the virtual device on 127.0.0.1; serial-*: a pseudo-terminal at "
                + "\(ServedDevice.serialBaud) baud (-\(Scenario.slowLineBaud): \(Scenario.slowLineBaud)), console framing; "
                + "both on the same model clock as the memory link")
        }
        if summaries.contains(where: { $0.scenario.link == .serial && $0.scenario.nordic != nil }) {
            lines.append("serial-nordic-*: the nRF52's bootloader on a pseudo-terminal at \(ServedDevice.serialBaud) baud "
                + "(-\(Scenario.slowLineBaud): \(Scenario.slowLineBaud)), SLIP "
                + "(a UART, MTU 131; -usb-: USB CDC ACM, MTU 2051), dfu's Nordic serial connector; same model clock")
        }
        if summaries.contains(where: { $0.scenario.link == .bluez }) {
            lines.append("bluez-*: the BlueZ stand-in (bluetoothd 5.66 on D-Bus) on a private dbus-daemon, dfu's BlueZ central; "
                + "the device behind it on the memory link, same model clock")
        }
        if summaries.contains(where: { $0.scenario.link == .process }) {
            lines.append(ProcessDeathReport.headerLine)
        }
        if let nordic {
            lines.append("nordic-*: \(nordic.packageName) (firmware \(nordic.firmwareBytes) bytes, init packet \(nordic.initPacketBytes), "
                + "fw_version \(nordic.version)) onto the virtual nRF52 at app_version 1; completed: exit 0 and the device runs "
                + "fw_version \(nordic.version); extra bytes: Packet bytes beyond one init packet and one firmware")
        }
        lines.append("")
        var rows = [
            ["scenario", "runs", "completed", "expected failures", "unexpected", "invariant", "extra bytes", "", "resumes", "model time"],
            ["", "", "", "", "", "violations", "median", "max", "median", "median s"],
        ]
        for summary in summaries {
            rows.append([
                summary.scenario.name,
                String(summary.runs),
                String(summary.completed),
                expectedText(summary),
                String(summary.unexpected.count),
                String(summary.violations),
                summary.extraBytesMedian.map { ColumnText.fixed($0, 0) } ?? "-",
                summary.extraBytesMax.map(String.init) ?? "-",
                summary.resumesMedian.map { ColumnText.fixed($0, $0 == $0.rounded() ? 0 : 1) } ?? "-",
                summary.modelSecondsMedian.map { ColumnText.fixed($0, 1) } ?? "-",
            ])
        }
        lines += ColumnText.align(rows, leftAligned: [0, 3])
        lines.append("")
        let unexpected = summaries.flatMap { summary in
            summary.records.filter { $0.outcome.unexpectedReason != nil || !$0.violations.isEmpty }.map { (summary.scenario, $0) }
        }
        if unexpected.isEmpty {
            lines.append("unexpected outcomes: none")
        } else {
            let file = nordic.map { "\(settings.image) (nordic-*: \($0.packageName))" } ?? settings.image
            lines.append("unexpected outcomes and invariant violations (\(unexpected.count) runs); a memory-link run replays with "
                + "`dfu flash \(file) --key KEY --device '<device>'`:")
            for (scenario, record) in unexpected { lines.append("  " + describe(record, in: scenario)) }
        }
        lines.append("")
        let totals = CampaignTotals(summaries)
        lines.append("invariants, checked from the device model after every run (runs that broke each):")
        for (invariant, count) in totals.byInvariant {
            lines.append("  \(invariant.rawValue): \(count) (\(invariant.text))")
        }
        lines.append("runs per protocol: " + totals.runsByProtocol.map { "\($0.name) \($0.runs)" }.joined(separator: ", "))
        lines.append("")
        lines.append("scenarios: name (expected outcome): what the device does")
        for summary in summaries {
            lines.append("  \(summary.scenario.name) (\(summary.scenario.expectation.text)): \(summary.scenario.summary)")
        }
        lines.append(totals.lastLine)
        return lines.joined(separator: "\n")
    }

    /// `, 5 of kill-then-reboot`: the costly scenarios' runs, when any ran.
    private static func costlyText(_ summaries: [ScenarioSummary], runs: Int) -> String {
        let costly = summaries.map(\.scenario).filter(\.costly)
        guard let first = costly.first else { return "" }
        return ", \(first.runs(given: runs)) of \(costly.map(\.name).joined(separator: ", "))"
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
        var parts: [String] = []
        if let reason = record.outcome.unexpectedReason { parts.append(reason) }
        if !record.violations.isEmpty { parts.append("broke " + record.violations.map(\.rawValue).joined(separator: ", ")) }
        return "\(scenario.name) run \(record.run) (seed \(record.seed), faults \(record.faults), device '\(record.device)'): "
            + parts.joined(separator: "; ")
    }

    /// One progress line per scenario, for stderr while the campaign works.
    static func progress(_ summary: ScenarioSummary) -> String {
        "dfu-faults: \(summary.scenario.name): \(summary.runs) runs, \(summary.completed) completed, "
            + "\(summary.unexpected.count) unexpected, \(summary.violations) invariant violations (\(ColumnText.fixed(summary.wallSeconds, 1)) s)"
    }
}
