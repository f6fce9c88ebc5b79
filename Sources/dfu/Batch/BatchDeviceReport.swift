import DFUCore
import ExitCodes
import Transport

/// How one device of a batch ended: one line of the report (`--json`, `--report FILE`) and one
/// line on the terminal.
struct BatchDeviceReport: Sendable {
    enum Result: String, Sendable, CaseIterable {
        /// The device runs the image (as the mode asked).
        case ok
        /// `--dry-run`: every check before the transfer passed; nothing was sent.
        case checked
        case failed
        /// The device was asked and already runs the image: nothing sent.
        case skipped
        /// An earlier run finished this update (its journal says so), but the device could not be
        /// asked whether it still runs it: not a success.
        case notChecked = "not-checked"
        /// Stopped by SIGINT/SIGTERM; `dfu resume` or the same batch again carries on.
        case interrupted

        /// How the terminal says it: `NOT CHECKED`.
        var label: String { rawValue.uppercased().replacingOccurrences(of: "-", with: " ") }

        /// The terminal's result column: the longest label and a space, so every device name
        /// starts in the same column.
        static let columnWidth = (allCases.map(\.label.count).max() ?? 0) + 1
    }

    var line: Int
    /// As the terminal names it (addresses shortened unless `--full-addresses`).
    var device: String
    /// As records name it: in full, whatever `--full-addresses` says (`BatchJob.fullName`).
    var fullDevice: String
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
    /// The plan row's extra columns, echoed as they were written.
    var extras: [BatchRow.Extra] = []

    var json: JSONValue {
        UpdateEventJSON.object("device", [
            ("line", .int(line)), ("device", .string(fullDevice)), ("image", .string(image)),
            ("protocol", protocolName.map { .string($0) } ?? .null), ("result", .string(result.rawValue)),
            ("exit_code", .int(Int(exitStatus.rawValue))), ("stage", .string(stage)),
            ("version_before", versionBefore.map { .string($0) } ?? .null),
            ("version_after", versionAfter.map { .string($0) } ?? .null),
            ("duration", .number(duration.seconds, maximumFractionDigits: 3)),
            ("bytes", .int(bytes)), ("error", error.map { .string($0) } ?? .null),
            ("extra", .object(extras.map { JSONField($0.name, .string($0.value)) })),
        ])
    }

    /// `OK          …:7A:01  app.signed.bin  1.0.0+0 → 1.1.0+0  6.2 s`, the device padded to `width`.
    func terminalLine(deviceWidth width: Int) -> String {
        let name = TerminalText.sanitized(device)
        let padded = name + String(repeating: " ", count: max(0, width - name.count))
        let label = result.label
        let head = label + String(repeating: " ", count: max(1, Result.columnWidth - label.count)) + padded + "  "
            + TerminalText.sanitized(image) + "  "
        let seconds = (FixedPoint.compact(duration.seconds, maximumFractionDigits: 1) ?? "?") + " s"
        switch result {
        case .ok:
            return head + "\(versionBefore ?? "?") → \(versionAfter ?? "?")  " + seconds
        case .checked:
            return head + "\(versionBefore ?? "?"): every check passed, nothing sent  " + seconds
        case .skipped:
            return head + TerminalText.sanitized(error ?? "already runs this image") + "  " + seconds
        case .failed, .notChecked, .interrupted:
            return head + "exit \(exitStatus.rawValue) in \(stage): " + TerminalText.sanitized(error ?? "") + "  " + seconds
        }
    }
}
