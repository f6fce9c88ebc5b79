import DFUCore
import ExitCodes

/// How one device of a batch ended: one line of the report (`--json`, `--report FILE`) and one
/// line on the terminal.
struct BatchDeviceReport: Sendable {
    enum Result: String, Sendable {
        /// The device runs the image (as the mode asked).
        case ok
        /// `--dry-run`: every check before the transfer passed; nothing was sent.
        case checked
        case failed
        /// An earlier run already finished this update (its journal says so): not flashed again.
        case skipped
        /// Stopped by SIGINT/SIGTERM; `dfu resume` or the same batch again carries on.
        case interrupted
    }

    var line: Int
    /// As output names it (addresses shortened unless `--full-addresses`).
    var device: String
    var image: String
    var protocolName: String?
    var result: Result
    var exitStatus: ExitStatus
    /// The stage the run ended in (`done` for a finished update).
    var stage: String
    var versionBefore: String?
    var versionAfter: String?
    var duration: Duration
    var bytes: Int
    var error: String?

    var json: JSONValue {
        UpdateEventJSON.object("device", [
            ("line", .int(line)), ("device", .string(device)), ("image", .string(image)),
            ("protocol", protocolName.map { .string($0) } ?? .null), ("result", .string(result.rawValue)),
            ("exit_code", .int(Int(exitStatus.rawValue))), ("stage", .string(stage)),
            ("version_before", versionBefore.map { .string($0) } ?? .null),
            ("version_after", versionAfter.map { .string($0) } ?? .null),
            ("duration", .number(HumanUnits.seconds(duration), maximumFractionDigits: 3)),
            ("bytes", .int(bytes)), ("error", error.map { .string($0) } ?? .null),
        ])
    }

    /// `OK       …:7A:01  app.signed.bin  1.0.0+0 -> 1.1.0+0  6.2 s`, the device padded to `width`.
    func terminalLine(deviceWidth width: Int) -> String {
        let name = TerminalText.sanitized(device)
        let padded = name + String(repeating: " ", count: max(0, width - name.count))
        let head = result.rawValue.uppercased().padding(toLength: 11) + padded + "  " + TerminalText.sanitized(image) + "  "
        let seconds = (FixedPoint.compact(HumanUnits.seconds(duration), maximumFractionDigits: 1) ?? "?") + " s"
        switch result {
        case .ok:
            return head + "\(versionBefore ?? "?") -> \(versionAfter ?? "?")  " + seconds
        case .checked:
            return head + "\(versionBefore ?? "?"): every check passed, nothing sent  " + seconds
        case .skipped:
            return head + (error ?? "already done")
        case .failed, .interrupted:
            return head + "exit \(exitStatus.rawValue) in \(stage): " + TerminalText.sanitized(error ?? "") + "  " + seconds
        }
    }
}

private extension String {
    func padding(toLength length: Int) -> String {
        self + String(repeating: " ", count: max(1, length - count))
    }
}
