/// What `dfu resume` needs to finish an update that a run did not: the request as it was made
/// (`FlashRequest`: the device, the file by absolute path, every option that decides what is sent),
/// what the file held (`UpdateFileFacts`: its SHA-256, so a changed file is refused), and how far
/// the update got. The device stays the source of truth for progress (ARCHITECTURE.md): `offset`
/// is only what the last run saw acknowledged, for `dfu resume --list`; the resumed run asks the
/// device again.
///
/// One file per device (`JournalStore`), JSON, typed facts only: no command-line words, no exit
/// codes, no key material and no passkey (a resumed run that needs a passkey gets it again from its
/// own command line or terminal). A journal of the first format (`dfu-journal/1`, which kept the
/// `dfu flash` words) is read through `LegacyJournal`.
public struct UpdateJournal: Codable, Sendable, Equatable {
    /// Where the update is. `stage` holds an `UpdateStage` raw value while the update runs.
    public enum Status: String, Codable, Sendable, Equatable {
        /// A run is at (or was stopped at) `stage`; `dfu resume` continues it.
        case unfinished
        /// The device runs the image (as the mode asked): nothing left to do.
        case done
    }

    /// This layout; a journal of `LegacyJournal.format` is converted, any other set aside as foreign.
    public static let currentFormat = "dfu-journal/2"

    public var format: String
    /// The update as asked for, paths absolute. Never a dry run (a dry run keeps no journal).
    public var request: FlashRequest
    /// What the file held when the update started.
    public var file: UpdateFileFacts
    /// The image's version as the file states it, for reports.
    public var imageVersion: String?
    public var status: Status
    /// The last `UpdateStage` a run entered (`transfer`), or `done`.
    public var stage: String
    /// Bytes of the part being sent that the device had acknowledged when last written.
    public var offset: Int
    /// The part being sent, for an update of several (`application`), else nil.
    public var part: String?
    /// Nordic: the name a run gave the device's bootloader (buttonless set-name). A run cut off
    /// after it leaves the bootloader advertising it, maybe at an address no rule predicts; the
    /// next run for this device looks for it by this name.
    public var bootloaderName: String?
    /// The version the device ran before the update, when a run read it, as the device states it
    /// (`1.0.0+0`; a Nordic application's firmware revision).
    public var versionBefore: String?
    /// The version the device reports after it, once confirmed (a Nordic application's firmware
    /// revision once the bootloader activated the update), stated the same way.
    public var versionAfter: String?
    /// Runs that have worked on this update, this one included.
    public var attempts: Int
    /// Unix seconds: the first run started, the journal was last written, the update finished.
    public var startedAt: Int
    public var updatedAt: Int
    public var finishedAt: Int?
    /// How the last run that ended ended; nil while it runs (a killed run leaves it nil).
    public var lastOutcome: Outcome?

    /// A new journal for `request` (its paths absolute) with the file that held `file`.
    public init(request: FlashRequest, file: UpdateFileFacts, imageVersion: String? = nil, now: Int) {
        self.format = Self.currentFormat
        self.request = request
        self.request.dryRun = false
        self.file = file
        self.imageVersion = imageVersion
        self.status = .unfinished
        self.stage = UpdateStage.verifyImage.rawValue
        self.offset = 0
        self.attempts = 1
        self.startedAt = now
        self.updatedAt = now
    }

    /// The device as the request names it (the canonical text `--device` takes, addresses in full).
    public var device: String { request.device }
    /// The update file's absolute path.
    public var imagePath: String { request.imagePath }
    public var imageSHA256: String { file.sha256 }
    public var imageSize: Int { file.size }
    public var protocolName: UpdateProtocolName { file.protocolName }
    /// The mode the update runs in.
    public var mode: ActivationMode { request.effectiveMode }

    /// Whether this journal is for the same update: same device and same file content.
    public func isSameUpdate(device: String, imageSHA256: String) -> Bool {
        self.device == device && self.imageSHA256 == imageSHA256
    }

    enum CodingKeys: String, CodingKey {
        case format, request, file
        case imageVersion = "image_version"
        case status, stage, offset, part
        case bootloaderName = "bootloader_name"
        case versionBefore = "version_before"
        case versionAfter = "version_after"
        case attempts
        case startedAt = "started_at"
        case updatedAt = "updated_at"
        case finishedAt = "finished_at"
        case lastOutcome = "last_outcome"
    }
}
