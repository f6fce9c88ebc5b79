/// Keeps one update's journal in step with its events: written ahead before the run starts
/// (`writeAhead`: events reach the recorder after the engine has moved on, so only a journal on
/// disk before the engine starts is sure to be there when the first byte leaves, and a process
/// killed before the device's first answer, which took a chunk, still leaves what `dfu resume`
/// needs), kept once the run changes the device (the
/// first bytes of its own the device acknowledges, a Nordic application restarted into a
/// bootloader it named, or the activation), then written when each stage starts, at most once a
/// second while the transfer progresses (the device keeps the real offset, so a journal a second
/// behind loses nothing), and when the run ends. A run that ends without changing the device (the
/// file, the connection, a precondition, an image the device refuses at once) left nothing to
/// finish: it writes no journal, and the one written ahead is removed. A journal that cannot be
/// written does not stop the update: the first failure is returned once, for the caller to warn about.
///
///     var recorder = JournalRecorder(journal, store: store, previous: store.journal(for: device).journal)
///     if let failure = recorder.writeAhead(at: .now, unixTime: time()) { warn(failure) }
///     for await event in run.events { if let failure = recorder.record(event, at: .now, unixTime: time()) { warn(failure) } }
///     _ = recorder.finish(.init(result: .succeeded, message: "the device runs 1.1.0"), at: .now, unixTime: time())
public struct JournalRecorder: Sendable {
    public private(set) var journal: UpdateJournal
    public let store: JournalStore
    /// Whether the journal is kept: the run changed the device, or carries on an unfinished update.
    public var isKept: Bool { started }
    /// How often a progressing transfer rewrites the journal.
    public static let progressInterval: Duration = .seconds(1)

    private var lastSave: ContinuousClock.Instant?
    /// Whether the journal is kept: the run changed the device, or it carries on an unfinished
    /// update (whose journal then says how this attempt ended, whatever it did).
    private var started: Bool
    private var warned = false
    /// Written ahead of the run, not yet kept: removed if the run ends so.
    private var writtenAhead = false
    /// The device's journal before this run (a finished update's, say), put back in place of one
    /// written ahead and not kept.
    private let replaced: UpdateJournal?

    /// Starts `journal` for a run. An unfinished journal of the same update (same device, same file
    /// content) is carried on: its attempt count goes up, and its first start, version and the
    /// progress it last saw are kept until this run sees more. The bootloader name of any
    /// unfinished update of the device is kept: that bootloader may still wait under it, whichever
    /// file comes next.
    public init(_ journal: UpdateJournal, store: JournalStore, previous: UpdateJournal?) {
        var journal = journal
        started = false
        if let previous, previous.status == .unfinished { journal.bootloaderName = previous.bootloaderName }
        if let previous, previous.status == .unfinished,
           previous.isSameUpdate(device: journal.device, imageSHA256: journal.imageSHA256) {
            journal.attempts = previous.attempts + 1
            journal.startedAt = previous.startedAt
            journal.versionBefore = previous.versionBefore
            journal.offset = previous.offset
            journal.part = previous.part
            started = true
        }
        self.journal = journal
        self.store = store
        replaced = previous
    }

    public mutating func record(_ event: UpdateEvent, at now: ContinuousClock.Instant, unixTime: Int) -> JournalError? {
        switch event {
        case .stageStarted(let stage):
            journal.stage = stage.rawValue
            if stage == .verifyImage { return nil }
            // Marking, resetting or confirming changes the device even when nothing was sent.
            if stage == .activate || stage == .confirmVersion { started = true }
        case .imageChecked(let summary):
            if journal.imageVersion == nil { journal.imageVersion = summary.versionText }
            return nil
        case .deviceState(let facts):
            if journal.versionBefore == nil {
                journal.versionBefore = facts.statedVersion ?? facts.firmwareRevision
            }
            return nil
        case .partStarted(let part):
            journal.part = part.name
            journal.offset = 0
        case .progress(let progress):
            journal.offset = progress.acknowledged
            if !started && progress.sent > 0 {
                started = true  // the device holds bytes of this run's: written at once
            } else if let lastSave, now - lastSave < Self.progressInterval {
                return nil
            }
        case .resumed(let offset, _):
            journal.offset = offset
        case .bootloaderNamed(let name):
            // The application restarted into its bootloader under this name: a later run must
            // know it, whether or not any byte follows.
            journal.bootloaderName = name
            started = true
        case .versionConfirmed(let version, _, _):
            journal.versionAfter = version.description
            return nil
        case .firmwareReported(let update, let revision, _):
            // What the device itself says (its firmware revision), as `versionBefore` does: what a
            // later run reads from it is compared with this (`dfu batch` asks before it skips).
            journal.versionAfter = revision ?? update
            return nil
        default:
            return nil
        }
        // A journal written ahead follows the stages too (`dfu resume --list` says where a killed run was).
        guard started || writtenAhead else { return nil }
        journal.updatedAt = unixTime
        return save(at: now)
    }

    /// Writes the journal before the run starts, unless it is already kept (an unfinished update
    /// carried on). Removed again by `finish` if the run ends without changing the device.
    public mutating func writeAhead(at now: ContinuousClock.Instant, unixTime: Int) -> JournalError? {
        guard !started else { return nil }
        writtenAhead = true
        journal.updatedAt = unixTime
        return save(at: now)
    }

    /// The run ended with `outcome` (succeeded: the device runs the image as the mode asked).
    public mutating func finish(_ outcome: UpdateJournal.Outcome, at now: ContinuousClock.Instant,
                                unixTime: Int) -> JournalError? {
        guard started else {
            guard writtenAhead else { return nil }
            writtenAhead = false
            do throws(JournalError) {
                if let replaced { try store.save(replaced) } else { try store.remove(device: journal.device) }
            } catch {
                return warnOnce(error)
            }
            return nil
        }
        journal.lastOutcome = outcome
        journal.updatedAt = unixTime
        if outcome.result == .succeeded {
            journal.status = .done
            journal.stage = "done"
            journal.finishedAt = unixTime
        }
        return save(at: now)
    }

    private mutating func save(at now: ContinuousClock.Instant) -> JournalError? {
        lastSave = now
        do throws(JournalError) {
            try store.save(journal)
            return nil
        } catch {
            return warnOnce(error)
        }
    }

    private mutating func warnOnce(_ error: JournalError) -> JournalError? {
        guard !warned else { return nil }
        warned = true
        return error
    }
}
