import ArgumentParsing

/// Flags every command that reports a result shares: `--json` and `--verbose`. Flags for talking
/// to a device (`--device`, `--adapter`, `--full-addresses`) are in `DeviceOptions` and
/// `BluetoothOptions` instead: `verify` works offline and must not accept them.
///
/// What `--json` prints differs by command, so the command says it where it declares the group,
/// and `--json`'s help follows:
///
///     var common = CommonOptions(json: .eventLines)
struct CommonOptions: ParsableArguments {
    /// The shape of a command's `--json` output.
    enum JSONOutput: Sendable {
        /// One JSON object on one line: the result (`dfu verify`).
        case result
        /// One JSON object per line, one per event, ending with a `result` line (`dfu flash`).
        case eventLines
        /// One JSON object per line, one per device found, ending with a `result` line (`dfu scan`).
        case deviceLines
        /// One JSON object per line, one per device as its update ends, then a summary `result`
        /// line (`dfu batch`).
        case deviceReports

        var help: String {
            switch self {
            case .result:
                return "Print the result as one JSON object on stdout instead of text."
            case .eventLines:
                return "Print one JSON object per line on stdout (NDJSON): each event, then a result line; "
                    + "nothing on stderr. Fields: docs/json-events.md."
            case .deviceReports:
                return "Print one JSON object per line on stdout (NDJSON): each device as its update ends, then a "
                    + "summary result line; nothing on stderr. Fields: docs/json-events.md."
            case .deviceLines:
                return "Print one JSON object per line on stdout (NDJSON): each device as it is found, then a "
                    + "result line; nothing on stderr. Fields: docs/json-events.md."
            }
        }
    }

    @Flag var json: Bool

    @Flag(short: "v", help: "Log each step on stderr (never key material or image bytes).")
    var verbose = false

    /// The declaration a command gets without saying what its JSON is: one result object.
    init() {
        self.init(json: .result)
    }

    init(json output: JSONOutput) {
        _json = Flag(help: output.help)
    }
}
