import DFUCore
import ExitCodes
import Transport

/// The human view of an update. One line per step on stdout:
///
///     image checked: app.signed.bin 1.1.0+0, 49.2 kB, ECDSA P-256 signature ok
///     connected: …:EE:FF, MTU 498, 2M PHY, interval 7.5 ms, window 3
///     battery 80 % ≥ 30 %
///     uploading 49.2 kB
///     (sending softdevice_bootloader 1/2, 24.6 kB … rebooting, reconnected, sending application 2/2 …
///     for an update in parts)
///     uploaded 49.2 kB in 3.21 s: first reply after 0.05 s (erase), then 46.8 kB in 3.16 s, 14.8 kB/s (88 % of ceiling)
///     marked for test
///     rebooting
///     …
///     OK: 1.1.0+0 is running and confirmed on …:EE:FF (update took 9.80 s)
///
/// A Nordic update is said in Nordic's words: versions as the package writes them (`application
/// fw_version 3`) and the device reports them (its firmware revision), and "activated" where SMP
/// says "confirmed" (the bootloader activates the firmware itself; nothing is confirmed):
///
///     version 0.0.1 → application fw_version 3
///     …
///     device reports firmware revision 0.0.3
///     activated
///     OK: application fw_version 3 activated on …:AA:94, which reports firmware revision 0.0.3 (update took 1.59 s)
///
/// While uploading, a terminal shows a bar redrawn in place (`\r`, at most ten times a second);
/// while the device reboots, the reboot's seconds counted in place (`rebooting… 3 s`,
/// `RebootCounter`, redrawn by `tick`), which stay on screen when it is back;
/// anything else (a log, a file) gets a plain line per 10 % and never a `\r`. Warnings, `--verbose`
/// logs and the error go to stderr. Device identities are printed as the engine gives them
/// (already shortened unless the user asked otherwise), and all text from outside dfu passes
/// through `TerminalText`. Events never carry image bytes or keys, so none can be printed.
struct TerminalRenderer<Sink: TextSink>: EventRenderer {
    /// Where the upload stands. One enum, so the bar cannot be redrawn after the upload ended.
    private enum Transfer {
        case notStarted
        /// Uploading; `last` is the newest progress, shown or not.
        case running(last: TransferProgress?)
        case finished
    }

    private(set) var sink: Sink
    let configuration: Configuration

    private var image: ImageSummary?
    /// Every image the verify-image stage reported (one, or each image of an update with several).
    private var imagesChecked: [ImageSummary] = []
    private var device: DeviceFacts?
    private var connection: ConnectionSummary?
    private var transfer = Transfer.notStarted
    private var throttle: ProgressThrottle
    /// Characters of the progress bar now on screen (nil: none), so a shorter redraw or a line that
    /// replaces it can blank the rest.
    private var barOnScreen: Int?
    private var timings = StageTimings()
    private var tally = UploadTally()
    private var firstEventAt: ContinuousClock.Instant?
    private var rebootCounter = RebootCounter()
    /// The reboot count now on screen (nil: none), drawn in place as the bar is.
    private var rebootOnScreen: String?
    private var reported: ReportedAfterUpdate?
    /// Set when a dry run ended: what the real run would have done.
    private var dryRun: DryRunVerdict?
    /// The engine may pass a precondition warning both in the verdict and as a `.warning`.
    private var shownWarnings: Set<String> = []

    init(sink: Sink, configuration: Configuration) {
        self.sink = sink
        self.configuration = configuration
        throttle = configuration.isTerminal ? .terminalBar : .plainLines
    }

    mutating func render(_ event: UpdateEvent, at now: ContinuousClock.Instant) {
        if firstEventAt == nil { firstEventAt = now }
        switch event {
        case .stageStarted(let stage):
            if stage == .transfer { startTransfer() }
        case .stageFinished(let stage, let duration):
            // The wait for the first reply is inside the transfer, not a stage of its own.
            let note = stage == .transfer && tally.parts > 0
                ? "of which first repl\(tally.parts > 1 ? "ies" : "y") \(HumanUnits.duration(tally.firstReplies))" : nil
            timings.record(stage, duration, note: note)
            if stage == .transfer { finishTransfer() }
        case .imageChecked(let summary):
            // An update of several images: the first (the application) is the one the run is about.
            if image == nil { image = summary }
            imagesChecked.append(summary)
            let which = summary.image.map { " \($0)" } ?? ""
            line("image checked: \(configuration.imageName)\(which) \(summary.versionText), \(HumanUnits.bytes(summary.size)), "
                 + (summary.signatureChecked.map { UpdateLineWords.signatureWords($0, summary) }
                    ?? UpdateLineWords.unsignedWords(summary, keyGiven: configuration.keyGiven)))
        case .connected(let summary):
            connection = summary
            line("connected: " + UpdateLineWords.linkDescription(summary))
            log(UpdateLineWords.linkDetails(summary))
        case .deviceState(let facts):
            device = facts
            log(UpdateLineWords.deviceDescription(facts))
        case .preconditionsPassed(let verdict):
            preconditionsPassed(verdict)
        case .dryRunPassed(let verdict):
            dryRun = verdict
        case .partStarted(let part):
            line("sending \(part.label), \(HumanUnits.bytes(part.size))")
        case .progress(let progress):
            show(progress, at: now)
        case .resumed(let offset, let attempt):
            resumed(at: offset, attempt: attempt)
        case .activated(let mode):
            line(UpdateLineWords.activationDescription(mode))
        case .rebooting:
            if configuration.isTerminal {
                clearBar()
                showReboot(rebootCounter.start(at: now))
            } else {
                line("rebooting")
            }
        case .bootloaderNamed:
            // Said by the engine's own log line; the name matters to the journal, not the reader.
            break
        case .reconnected(let summary):
            // The count as it stands now, whether or not a tick drew it.
            if rebootOnScreen != nil, let text = rebootCounter.redraw(at: now) { showReboot(text) }
            endReboot()
            connection = summary
            line("reconnected")
        case .versionConfirmed(let version, let confirmed, let which):
            // With several images the first image's comes last: it is the one the result names.
            reported = .image(confirmed: confirmed)
            line("device reports \(which.map { "\($0) " } ?? "")\(version), active")
            line(confirmed ? "confirmed" : "not confirmed: the device goes back to its previous image on the next reset")
        case .writtenByRecovery(let version, let hashChecked, let which):
            reported = .recovery(hashChecked: hashChecked)
            line("MCUboot lists \(which.map { "\($0) " } ?? "")\(version) valid in its primary slot "
                 + "(\(hashChecked ? "hash" : "version") checked); resetting")
        case .firmwareReported(let update, let revision, let activated):
            reported = .firmware(update: update, revision: revision, activated: activated)
            line("device reports " + (revision.map { "firmware revision \($0)" } ?? "no firmware revision (Device Information)"))
            if activated { line("activated") }
        case .warning(let message):
            warn(message)
        case .log(let message):
            log(message)
        }
    }

    mutating func finish(_ result: UpdateResult, at now: ContinuousClock.Instant) -> ExitStatus {
        endReboot()
        if case .running(let last) = transfer {
            transfer = .finished
            clearBar()
            if case .failure = result, let last {
                line("upload stopped at \(HumanUnits.percent(last.acknowledged, of: last.total)) % "
                     + "(\(HumanUnits.bytes(last.acknowledged, of: last.total)))")
            }
        }
        if configuration.verbose, let rows = timings.rows {
            let clock = configuration.modelTimeScale.map { " (model time, timescale \(Self.scaleText($0)))" } ?? ""
            log("stage timings\(clock):")
            for row in rows { log("  " + row) }
        }
        switch result {
        case .success(let version):
            line(dryRun.map { dryRunLine($0, version) } ?? successLine(version, took: firstEventAt.map { now - $0 }))
        case .failure(let error):
            line("dfu: error: \(error.description)", to: .standardError)
        }
        return result.exitStatus
    }

    mutating func tick(at now: ContinuousClock.Instant) {
        guard rebootOnScreen != nil, let text = rebootCounter.redraw(at: now) else { return }
        showReboot(text)
    }

    // MARK: - Steps

    private mutating func startTransfer() {
        transfer = .running(last: nil)
        line("uploading " + (uploadSize.map(HumanUnits.bytes) ?? "the image"))
    }

    /// Bytes the update uploads: every image of an update with several.
    private var uploadSize: Int? {
        imagesChecked.isEmpty ? nil : imagesChecked.reduce(0) { $0 + $1.size }
    }

    private mutating func finishTransfer() {
        transfer = .finished
        clearBar()
        line(uploadedLine)
    }

    /// `uploaded 49.8 kB in 0.59 s: first reply after 0.08 s (erase), then 47.4 kB in 0.51 s,
    /// 93.2 kB/s (96 % of ceiling)`: what this run sent, and times that add up (shown to the
    /// hundredth, the two parts of the time are rounded so that they sum to the whole).
    private var uploadedLine: String {
        guard tally.parts > 0 else { return "uploaded nothing: the device needed none of it" }
        let total = Self.centiseconds(tally.time)
        let wait = min(total, Self.centiseconds(tally.firstReplies))
        var text = "uploaded \(HumanUnits.bytes(tally.sent)) in \(HumanUnits.duration(.milliseconds(total * 10)))"
        if configuration.modelTimeScale != nil { text += " (model time)" }
        if tally.heldBefore > 0 { text += ", resumed at \(HumanUnits.bytes(tally.heldBefore))" }
        text += ": first repl\(tally.parts > 1 ? "ies" : "y") after \(HumanUnits.duration(.milliseconds(wait * 10)))"
        if tally.partsFromStart > 0 { text += " (erase)" }
        if let rate = tally.rate, rate.isFinite {
            let rest = HumanUnits.duration(.milliseconds((total - wait) * 10))
            text += ", then \(HumanUnits.bytes(tally.afterFirstReply)) in \(rest), " + HumanUnits.rate(rate)
            if let share = ceilingShare(rate) { text += " (\(share) % of ceiling)" }
        }
        return text
    }

    private static func centiseconds(_ duration: Duration) -> Int {
        let hundredths = (duration.seconds * 100).rounded()
        return hundredths.isFinite && hundredths >= 0 && hundredths < 1e12 ? Int(hundredths) : 0
    }

    /// `0.1`, `0.05`: the scale as the user gave it.
    private static func scaleText(_ scale: Double) -> String {
        FixedPoint.compact(scale, maximumFractionDigits: 6) ?? "?"
    }

    private mutating func preconditionsPassed(_ verdict: Preconditions.Verdict) {
        if let level = device?.batteryLevel {
            line("battery \(level) % ≥ \(configuration.minimumBattery) %")
        }
        if let running = device?.runningVersion, let image {
            let note = image.version > running ? ""
                : configuration.requireNewer ? " (not newer; the device decides, --require-newer)"
                : " (not newer; allowed by --allow-downgrade)"
            line("version \(device?.statedVersion ?? running.description) → \(image.versionText)\(note)")
        }
        for warning in verdict.warnings { warn(warning) }
    }

    private mutating func show(_ progress: TransferProgress, at now: ContinuousClock.Instant) {
        // A reply that arrives after the transfer stage ended changes nothing on screen.
        if case .finished = transfer { return }
        transfer = .running(last: progress)
        tally.record(progress)
        guard throttle.shouldShow(progress, at: now) else { return }
        if configuration.isTerminal {
            drawBar(progress)
        } else {
            line("uploading\(progress.part.map { " " + $0.label } ?? ""): "
                 + "\(HumanUnits.percent(progress.acknowledged, of: progress.total)) % ("
                 + progressDetails(progress).joined(separator: ", ") + ")")
        }
    }

    private mutating func resumed(at offset: Int, attempt: Int) {
        var position = HumanUnits.bytes(offset)
        if case .running(let last?) = transfer { position = HumanUnits.bytes(offset, of: last.total) }
        line("link lost; reconnected (attempt \(attempt)), resuming at \(position)")
    }

    // MARK: - Output

    /// Writes one whole line. A progress bar on screen is blanked first and drawn again after, so
    /// a warning in the middle of an upload does not leave half a bar behind it.
    private mutating func line(_ text: String, to stream: ConsoleStream = .standardOutput) {
        // The reboot count ends with the next result line; a log line passes above it.
        if stream == .standardOutput { endReboot() }
        let reboot = rebootOnScreen
        let barWasShown = barOnScreen != nil
        clearBar()
        clearReboot()
        sink.emit(TerminalText.sanitized(text) + "\n", to: stream)
        if barWasShown, case .running(let last?) = transfer { drawBar(last) }
        if let reboot { showReboot(reboot) }
    }

    /// Draws the reboot count in place of the one on screen.
    private mutating func showReboot(_ text: String) {
        let padding = max(0, (rebootOnScreen?.count ?? 0) - text.count)
        sink.emit("\r" + text + String(repeating: " ", count: padding), to: .standardOutput)
        rebootOnScreen = text
    }

    private mutating func clearReboot() {
        guard let shown = rebootOnScreen else { return }
        sink.emit("\r" + String(repeating: " ", count: shown.count) + "\r", to: .standardOutput)
        rebootOnScreen = nil
    }

    /// The reboot is over: the last count stays on its line.
    private mutating func endReboot() {
        rebootCounter.stop()
        guard rebootOnScreen != nil else { return }
        sink.emit("\n", to: .standardOutput)
        rebootOnScreen = nil
    }

    private mutating func warn(_ message: String) {
        guard shownWarnings.insert(message).inserted else { return }
        line("warning: " + message, to: .standardError)
    }

    private mutating func log(_ message: String?) {
        guard configuration.verbose, let message else { return }
        line("dfu: " + message, to: .standardError)
    }

    /// `[█████░░░░░░░░░░░]  31 %  15.2/49.2 kB  15.3 kB/s  91 % of ceiling  ETA 0:03`: under 80
    /// columns even for a 512 kB image, because a line that wraps puts the next `\r` on the wrong row.
    private mutating func drawBar(_ progress: TransferProgress) {
        let width = 16
        let percent = HumanUnits.percent(progress.acknowledged, of: progress.total)
        let filled = percent * width / 100
        let percentText = String(percent)
        var text = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "] "
            + String(repeating: " ", count: max(0, 3 - percentText.count)) + percentText + " %  "
            + progressDetails(progress).joined(separator: "  ")
        let length = text.count
        if let previous = barOnScreen, previous > length {
            text += String(repeating: " ", count: previous - length)
        }
        sink.emit("\r" + text, to: .standardOutput)
        barOnScreen = length
    }

    private mutating func clearBar() {
        guard let length = barOnScreen else { return }
        sink.emit("\r" + String(repeating: " ", count: length) + "\r", to: .standardOutput)
        barOnScreen = nil
    }

    // MARK: - Text

    /// Bytes, rate, share of the link ceiling and time left, as far as they are known.
    private func progressDetails(_ progress: TransferProgress) -> [String] {
        var parts = [HumanUnits.bytes(progress.acknowledged, of: progress.total)]
        guard progress.rate > 0, progress.rate.isFinite else { return parts }
        parts.append(HumanUnits.rate(progress.rate))
        if let share = ceilingShare(progress.rate) { parts.append("\(share) % of ceiling") }
        if progress.acknowledged < progress.total {
            parts.append("ETA " + HumanUnits.clock(Double(progress.total - progress.acknowledged) / progress.rate))
        }
        return parts
    }

    /// The goodput as a whole percent of the link's modelled ceiling, when the link has one.
    private func ceilingShare(_ rate: Double) -> Int? {
        guard let ceiling = connection?.ceiling, ceiling > 0, ceiling.isFinite, rate.isFinite else { return nil }
        let share = (rate / ceiling * 100).rounded()
        return share < 10_000 ? Int(share) : nil
    }

    private func successLine(_ version: ImageVersion, took elapsed: Duration?) -> String {
        let device = connection?.device ?? "the device"
        let took = elapsed.map { " (update took \(HumanUnits.duration($0)))" } ?? ""
        switch reported {
        case .image(true)?: return "OK: \(version) is running and confirmed on \(device)" + took
        case .image(false)?: return "OK: \(version) is running on \(device), not confirmed" + took
        case .firmware(let update, let revision, let activated)?:
            let reports = revision.map { "which reports firmware revision \($0)" } ?? "which reports no firmware revision"
            return "OK: \(update) \(activated ? "activated" : "already runs") on \(device), \(reports)" + took
        case .recovery(let hashChecked)?:
            return "OK: \(version) written to the primary slot of \(device) by MCUboot's serial recovery and listed valid "
                + "(\(hashChecked ? "hash" : "version") checked) before its reset; the application was not read" + took
        case nil: return "OK: \(version) is uploaded to \(device), not activated" + took
        }
    }

    /// `dry run OK: …:EE:FF would get 49.8 kB (1.1.0+0), then test-confirm; nothing was sent`.
    private func dryRunLine(_ verdict: DryRunVerdict, _ imageVersion: ImageVersion) -> String {
        // The version as the file states it (a Nordic package's fw_version).
        let version = image?.versionText ?? imageVersion.description
        let device = connection?.device ?? "the device"
        let would: String
        switch verdict.plan {
        case .upload(let bytes):
            let then = verdict.activatesItself ? "activated by its bootloader" : verdict.mode.rawValue
            would = "would get \(HumanUnits.bytes(bytes)) (\(version)), then \(then)"
        case .activateOnly: would = "already holds \(version): it would only be activated (\(verdict.mode.rawValue))"
        case .confirmOnly: would = "already runs \(version): it would only be confirmed"
        case .nothing: would = "already runs \(version), confirmed: nothing to do"
        }
        return "dry run OK: every check passed; \(device) \(would). Nothing was sent."
    }

}

/// What the device reported after the update, for the result line.
private enum ReportedAfterUpdate {
    /// An MCUboot image runs (`versionConfirmed`), confirmed or not.
    case image(confirmed: Bool)
    /// A Nordic bootloader activated `update` (`firmwareReported`), or found it already running.
    case firmware(update: String, revision: String?, activated: Bool)
    /// MCUboot's serial recovery listed the image in its primary slot (`writtenByRecovery`), and
    /// nothing was read from the application after the reset.
    case recovery(hashChecked: Bool)
}
