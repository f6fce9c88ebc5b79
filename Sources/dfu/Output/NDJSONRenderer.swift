import DFUCore
import ExitCodes

/// The `--json` view of an update: one JSON object per line on stdout for every event, ending with
/// a `"result"` line, nothing on stderr. Field by field in `docs/json-events.md`.
///
/// Progress is thinned by `ProgressThrottle.jsonLines` (every 1 % or 250 ms). The newest progress
/// is never lost: one held back is written before the next other event and before the result, so
/// the last progress line always says where the upload stopped. `.log` lines appear only with
/// `--verbose`.
struct NDJSONRenderer<Sink: TextSink>: EventRenderer {
    struct Configuration: Sendable {
        /// The command the result line names (`flash`).
        var command: String
        /// `--verbose`: include the engine's `log` events.
        var verbose: Bool
        /// The event of the last line (`result`; `update-result` for each run of `dfu resume`).
        var resultEvent: String

        init(command: String, verbose: Bool, resultEvent: String = "result") {
            self.command = command
            self.verbose = verbose
            self.resultEvent = resultEvent
        }
    }

    private(set) var sink: Sink
    let configuration: Configuration
    private var throttle = ProgressThrottle.jsonLines
    /// A progress the throttle held back, written before anything that follows it.
    private var heldBack: TransferProgress?
    /// A dry run ended: the result line says so.
    private var dryRun = false
    /// The version in the update file's own words (a Nordic package's `application fw_version 3`),
    /// and what a Nordic bootloader activated: the result's `version` then.
    private var imageVersionText: String?
    private var activatedText: String?

    init(sink: Sink, configuration: Configuration) {
        self.sink = sink
        self.configuration = configuration
    }

    mutating func render(_ event: UpdateEvent, at now: ContinuousClock.Instant) {
        if case .progress(let progress) = event {
            if throttle.shouldShow(progress, at: now) {
                heldBack = nil
                write(UpdateEventJSON.object(for: event))
            } else {
                heldBack = progress
            }
            return
        }
        if case .log = event, !configuration.verbose { return }
        switch event {
        case .dryRunPassed: dryRun = true
        case .imageChecked(let summary): imageVersionText = imageVersionText ?? summary.versionText
        case .firmwareReported(let update, _, _): activatedText = update
        default: break
        }
        flushHeldBack(at: now)
        write(UpdateEventJSON.object(for: event))
    }

    mutating func finish(_ result: UpdateResult, at now: ContinuousClock.Instant) -> ExitStatus {
        flushHeldBack(at: now)
        write(UpdateEventJSON.result(command: configuration.command, result, dryRun: dryRun,
                                     versionText: activatedText ?? (dryRun ? imageVersionText : nil),
                                     event: configuration.resultEvent))
        return result.exitStatus
    }

    private mutating func flushHeldBack(at now: ContinuousClock.Instant) {
        guard let progress = heldBack else { return }
        heldBack = nil
        throttle.markShown(progress, at: now)
        write(UpdateEventJSON.object(for: .progress(progress)))
    }

    private mutating func write(_ value: JSONValue) {
        sink.emit(value.encoded + "\n", to: .standardOutput)
    }
}
