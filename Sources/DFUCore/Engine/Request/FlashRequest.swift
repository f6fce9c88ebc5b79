/// One update as asked for: everything that decides what is sent and how, whoever asked (`dfu
/// flash`'s options, a `dfu batch` plan row, the journal `dfu resume` reads). The engine's options
/// come from it (`updateOptions`), and the journal stores it as it is, so a resumed run is the same
/// request and never a command line read back.
///
/// Not in it: how the run is shown (`--json`, `--verbose`, full addresses), which is the
/// caller's, and the passkey, a secret that is never stored. The file's content is read when the
/// run starts; what it held then is `UpdateFileFacts`, beside the request in the journal.
public struct FlashRequest: Sendable, Equatable, Codable {
    /// The update file. As given (relative to the working directory) for a run's own messages; the
    /// journal keeps it absolute (`resolvingPaths(in:)`), as a resumed run may start elsewhere.
    public var imagePath: String
    /// The device, in the canonical text of the CLI's device form (`AA:BB:CC:DD:EE:FF`, `name:…`,
    /// `sim:…`, `udp:HOST:PORT`): what the journal is keyed by.
    public var device: String
    /// The BlueZ adapter (`hci1`); nil: the first powered one.
    public var adapter: String?
    /// The public key the file must be signed with; nil: the signature is not checked.
    public var keyPath: String?
    /// Accept a Nordic package whose images are not signed although a key is given.
    public var allowUnsigned = false
    /// The version the device must report after the reboot.
    public var expectVersion: String?
    /// Nordic Secure DFU: a packet receipt every N packets (0: none).
    public var packetReceiptInterval: UInt16 = 0
    /// Nordic Secure DFU: the name the bootloader is to advertise.
    public var bootloaderName: String?
    /// The activation mode as asked; `effectiveMode` is the one an image index allows.
    public var mode: ActivationMode = .testConfirm
    /// MCUboot: the image index to update (0–15); nil: the device's default.
    public var imageIndex: Int?
    /// Refuse a device whose battery is below this level (percent).
    public var minimumBattery = UpdateOptions().minimumBattery
    public var allowDowngrade = false
    public var requireNewer = false
    public var allowHostOnBattery = false
    /// Pair and bond first, even if the device does not ask.
    public var pair = false
    /// `--enter-recovery`: reset the application into MCUboot's serial recovery first. Optional so
    /// that a journal written before it existed still reads (nil: no).
    public var enterRecovery: Bool?
    /// The waits the user set; the others are the engine's defaults.
    public var timeouts = Timeouts()
    /// Stop before the transfer (`--dry-run`). Never stored: a dry run keeps no journal.
    public var dryRun = false

    public init(imagePath: String, device: String) {
        self.imagePath = imagePath
        self.device = device
    }

    /// test-confirm for an image other than the application's cannot confirm after the reboot
    /// (`ActivationMode.forImage`): the mode the update runs in.
    public var effectiveMode: ActivationMode {
        mode.forImage(UInt64(clamping: imageIndex ?? 0))
    }

    /// The same request with its file paths absolute, relative ones taken from `directory`.
    public func resolvingPaths(in directory: String) -> FlashRequest {
        var resolved = self
        resolved.imagePath = Self.absolute(imagePath, in: directory)
        resolved.keyPath = keyPath.map { Self.absolute($0, in: directory) }
        return resolved
    }

    static func absolute(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }

    enum CodingKeys: String, CodingKey {
        case imagePath = "image"
        case device, adapter
        case keyPath = "key"
        case allowUnsigned = "allow_unsigned"
        case expectVersion = "expect_version"
        case packetReceiptInterval = "prn"
        case bootloaderName = "bootloader_name"
        case mode
        case imageIndex = "image_index"
        case minimumBattery = "min_battery"
        case allowDowngrade = "allow_downgrade"
        case requireNewer = "require_newer"
        case allowHostOnBattery = "allow_host_battery"
        case pair, timeouts
        case enterRecovery = "enter_recovery"
    }
}
