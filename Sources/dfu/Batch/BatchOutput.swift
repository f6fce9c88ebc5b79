import DFUCore
import ExitCodes
import Synchronization
import Transport

/// What `dfu batch` prints. With `--json`, one JSON line per device as it ends, then a summary
/// line (`docs/json-events.md`, "dfu batch"); `--report FILE` gets the same lines whatever the
/// console shows. As text, one line per device as it ends and a summary; on a terminal, below
/// them, one live line per device in flight (stage, share acknowledged, rate), redrawn in place.
final class BatchOutput: Sendable {
    let console: Console
    let json: Bool
    /// Text on a terminal: the live lines are drawn.
    let live: Bool
    let report: BatchReportFile?
    let deviceWidth: Int
    /// Live lines on screen now, to move back over.
    private let drawn = Mutex(0)

    init(console: Console, json: Bool, live: Bool, report: BatchReportFile?, deviceWidth: Int) {
        self.console = console
        self.json = json
        self.live = live && !json
        self.report = report
        self.deviceWidth = deviceWidth
    }

    /// `doneBefore`: devices an earlier run finished, which are asked before they are skipped.
    func begin(devices: Int, parallel: Int, doneBefore: Int) {
        guard !json else { return }
        let note = doneBefore > 0 ? " (\(doneBefore) done by an earlier run: asked first)" : ""
        console.out("dfu batch: \(devices) device\(devices == 1 ? "" : "s")\(note), up to \(parallel) at a time")
    }

    func beginDiscovery(filter: String, adapter: String, count: Int?, until: Double?) {
        guard !json else { return }
        var limits: [String] = []
        if let count { limits.append("until \(count) device\(count == 1 ? " is" : "s are") done") }
        if let until { limits.append("for at most \(FixedPoint.compact(until, maximumFractionDigits: 1) ?? "?") s") }
        console.out("dfu batch: looking for \(TerminalText.sanitized(filter)) on \(adapter) " + limits.joined(separator: ", "))
    }

    func finished(_ device: BatchDeviceReport) {
        let line = device.json.encoded
        writeReport(line)
        if json {
            console.out(line)
            return
        }
        drawn.withLock { drawn in
            clear(&drawn)
            console.out(device.terminalLine(deviceWidth: deviceWidth))
        }
    }

    /// Redraws the live lines (a terminal only).
    func redraw(_ inFlight: [BatchBoard.Entry]) {
        guard live else { return }
        drawn.withLock { drawn in
            clear(&drawn)
            let lines = inFlight.map(liveLine)
            guard !lines.isEmpty else { return }
            console.emit(lines.map { $0 + "\n" }.joined(), to: .standardOutput)
            drawn = lines.count
        }
    }

    /// The batch was refused before any device ran (`--json` only: as text it is the CLI's error line).
    func refused(_ error: DFUError) {
        summary([], status: error.exitStatus, duration: .zero, refusal: error.description)
    }

    func summary(_ reports: [BatchDeviceReport], status: ExitStatus, duration: Duration, refusal: String? = nil) {
        let count = { (result: BatchDeviceReport.Result) in reports.filter { $0.result == result }.count }
        let failed = count(.failed) + count(.notChecked) + count(.interrupted)
        let error: String? = refusal ?? (status == .success ? nil
            : "\(failed) of \(reports.count) device\(reports.count == 1 ? "" : "s") did not finish; exit \(status.rawValue) is the most severe of theirs")
        let line = UpdateEventJSON.object("result", [
            ("command", .string(BatchCommand.name)), ("ok", .bool(status == .success)),
            ("exit_code", .int(Int(status.rawValue))), ("devices", .int(reports.count)), ("succeeded", .int(count(.ok) + count(.checked))),
            ("skipped", .int(count(.skipped))), ("failed", .int(count(.failed))), ("not_checked", .int(count(.notChecked))),
            ("interrupted", .int(count(.interrupted))),
            ("duration", .number(duration.seconds, maximumFractionDigits: 3)),
            ("error", error.map { .string($0) } ?? .null),
        ]).encoded
        writeReport(line)
        if json {
            console.out(line)
            return
        }
        drawn.withLock { clear(&$0) }
        var text = count(.checked) > 0 ? "dfu batch: \(count(.checked)) checked (dry run), \(count(.failed)) failed"
            : "dfu batch: \(count(.ok)) ok, \(count(.failed)) failed"
        if count(.skipped) > 0 { text += ", \(count(.skipped)) already done" }
        if count(.notChecked) > 0 { text += ", \(count(.notChecked)) not checked" }
        if count(.interrupted) > 0 { text += ", \(count(.interrupted)) interrupted" }
        text += " of \(reports.count) in \(HumanUnits.duration(duration))"
        if status != .success { text += "; exit \(status.rawValue)" }
        console.out(text)
    }

    /// Adds `line` to `--report FILE`; the first write that fails is said on stderr.
    private func writeReport(_ line: String) {
        guard let warning = report?.write(line) else { return }
        drawn.withLock { drawn in
            clear(&drawn)
            console.error("dfu: warning: " + warning)
        }
    }

    /// `  …:7A:01     transfer   43 %  96.1 kB/s`.
    private func liveLine(_ entry: BatchBoard.Entry) -> String {
        let name = TerminalText.sanitized(entry.name)
        var line = "  " + name + String(repeating: " ", count: max(0, deviceWidth - name.count)) + "  "
        let stage = entry.progress.stage?.rawValue ?? "starting"
        line += stage + String(repeating: " ", count: max(1, 19 - stage.count))
        if entry.progress.stage == .transfer, entry.progress.total > 0 {
            line += "\(entry.progress.acknowledged * 100 / entry.progress.total) %  " + HumanUnits.rate(entry.progress.rate)
            if let part = entry.progress.part { line += "  " + TerminalText.sanitized(part) }
        }
        return line
    }

    /// Moves back over the live lines and clears them (cursor up, erase to the end of the screen).
    private func clear(_ drawn: inout Int) {
        guard live, drawn > 0 else { return }
        console.emit("\u{1B}[\(drawn)F\u{1B}[J", to: .standardOutput)
        drawn = 0
    }
}
