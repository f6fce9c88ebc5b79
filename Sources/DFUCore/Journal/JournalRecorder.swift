/// Keeps one update's journal in step with its events: written when each stage starts, at most once
/// a second while the transfer progresses (the device keeps the real offset, so a journal a second
/// behind loses nothing), and when the run ends. A journal that cannot be written does not stop
/// the update: the first failure is returned once, for the caller to warn about.
///
///     var recorder = JournalRecorder(journal, store: store, previous: store.journal(for: device).journal)
///     for await event in run.events { if let failure = recorder.record(event, at: .now, unixTime: time()) { warn(failure) } }
///     _ = recorder.finish(exitCode: 0, message: "the device runs 1.1.0", at: .now, unixTime: time())
public struct JournalRecorder: Sendable {
    public private(set) var journal: UpdateJournal
    public let store: JournalStore
    /// How often a progressing transfer rewrites the journal.
    public static let progressInterval: Duration = .seconds(1)

    private var lastSave: ContinuousClock.Instant?
    /// A journal is first written when the image has been checked: a file that fails the check
    /// is no update to resume.
    private var started = false
    private var warned = false

    /// Starts `journal` for a run. An unfinished journal of the same update (same device, same file
    /// content) is carried on: its attempt count goes up and its first start and version are kept.
    /// The bootloader name of any unfinished update of the device is kept: that bootloader may
    /// still wait under it, whichever file comes next.
    public init(_ journal: UpdateJournal, store: JournalStore, previous: UpdateJournal?) {
        var journal = journal
        if let previous, previous.status == .unfinished { journal.bootloaderName = previous.bootloaderName }
        if let previous, previous.status == .unfinished,
           previous.isSameUpdate(device: journal.device, imageSHA256: journal.imageSHA256) {
            journal.attempts = previous.attempts + 1
            journal.startedAt = previous.startedAt
            journal.versionBefore = previous.versionBefore
        }
        self.journal = journal
        self.store = store
    }

    public mutating func record(_ event: UpdateEvent, at now: ContinuousClock.Instant, unixTime: Int) -> JournalError? {
        switch event {
        case .stageStarted(let stage):
            journal.stage = stage.rawValue
            if stage == .verifyImage { return nil }
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
            if let lastSave, now - lastSave < Self.progressInterval { return nil }
        case .resumed(let offset, _):
            journal.offset = offset
        case .bootloaderNamed(let name):
            journal.bootloaderName = name
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
        journal.updatedAt = unixTime
        return save(at: now)
    }

    /// The run ended with `exitCode` (0: the device runs the image as the mode asked).
    public mutating func finish(exitCode: Int32, message: String, at now: ContinuousClock.Instant,
                                unixTime: Int) -> JournalError? {
        guard started else { return nil }
        journal.lastOutcome = .init(exitCode: exitCode, message: message)
        journal.updatedAt = unixTime
        if exitCode == 0 {
            journal.status = .done
            journal.stage = "done"
            journal.finishedAt = unixTime
        }
        return save(at: now)
    }

    private mutating func save(at now: ContinuousClock.Instant) -> JournalError? {
        started = true
        lastSave = now
        do throws(JournalError) {
            try store.save(journal)
            return nil
        } catch {
            guard !warned else { return nil }
            warned = true
            return error
        }
    }
}
