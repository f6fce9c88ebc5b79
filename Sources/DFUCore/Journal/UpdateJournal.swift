/// What `dfu resume` needs to finish an update that a run did not: which device, which file (by path
/// and SHA-256, so a changed file is refused), the command that restarts it, and how far it got.
/// The device stays the source of truth for progress (ARCHITECTURE.md): `offset` is only what the
/// last run saw acknowledged, for `dfu resume --list`; the resumed run asks the device again.
///
/// One file per device (`JournalStore`), JSON, no key material and no passkey: a resumed run that
/// needs a passkey gets it again from its own command line or terminal.
public struct UpdateJournal: Codable, Sendable, Equatable {
    /// Where the update is. `stage` holds an `UpdateStage` raw value while the update runs.
    public enum Status: String, Codable, Sendable, Equatable {
        /// A run is at (or was stopped at) `stage`; `dfu resume` continues it.
        case unfinished
        /// The device runs the image (as the mode asked): nothing left to do.
        case done
    }

    /// How the last run that ended (rather than being killed) ended.
    public struct Outcome: Codable, Sendable, Equatable {
        public var exitCode: Int32
        public var message: String

        public init(exitCode: Int32, message: String) {
            self.exitCode = exitCode
            self.message = message
        }

        enum CodingKeys: String, CodingKey {
            case exitCode = "exit_code"
            case message
        }
    }

    /// This layout; a journal with another is set aside as foreign.
    public static let currentFormat = "dfu-journal/1"

    public var format: String
    /// The device as `--device` takes it, addresses in full (the journal is the user's own file).
    public var device: String
    /// `smp` or `nordic` (`UpdateProtocolName`).
    public var protocolName: String
    /// The update file: an absolute path, its SHA-256 (hex) and size.
    public var imagePath: String
    public var imageSHA256: String
    public var imageSize: Int
    /// The image's version as the file states it, for reports.
    public var imageVersion: String?
    /// The activation mode's name (`test-confirm`).
    public var mode: String
    /// The `dfu flash` arguments that restart this update (the file and `--key` as absolute paths);
    /// never `--passkey`, never output flags.
    public var arguments: [String]
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

    public init(device: String, protocolName: String, imagePath: String, imageSHA256: String, imageSize: Int,
                imageVersion: String?, mode: String, arguments: [String], now: Int) {
        self.format = Self.currentFormat
        self.device = device
        self.protocolName = protocolName
        self.imagePath = imagePath
        self.imageSHA256 = imageSHA256
        self.imageSize = imageSize
        self.imageVersion = imageVersion
        self.mode = mode
        self.arguments = arguments
        self.status = .unfinished
        self.stage = UpdateStage.verifyImage.rawValue
        self.offset = 0
        self.attempts = 1
        self.startedAt = now
        self.updatedAt = now
    }

    /// Whether this journal is for the same update: same device and same file content.
    public func isSameUpdate(device: String, imageSHA256: String) -> Bool {
        self.device == device && self.imageSHA256 == imageSHA256
    }

    enum CodingKeys: String, CodingKey {
        case format, device
        case protocolName = "protocol"
        case imagePath = "image_path"
        case imageSHA256 = "image_sha256"
        case imageSize = "image_size"
        case imageVersion = "image_version"
        case mode, arguments, status, stage, offset, part
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
