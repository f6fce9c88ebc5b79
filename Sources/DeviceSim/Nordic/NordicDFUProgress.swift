import DFUCore

/// The bootloader's `dfu_progress_t` plus the init command buffer: what a transfer has reached.
/// It lives in RAM; the bootloader copies it to its stored settings only at the points the SDK
/// writes them (`NordicDFUSettings`).
public struct NordicDFUProgress: Sendable, Hashable {
    /// The size Create(command) declared; 0 before any.
    public var commandSize = 0
    /// The init command bytes received so far (their count is the command offset).
    public var initCommand: [UInt8] = []
    public var commandCRC: UInt32 = 0
    /// The size of the data object being filled; 0 when none is (after its Execute).
    public var dataObjectSize = 0
    /// Cumulative image offset and CRC over everything received, the open object included.
    public var imageOffset = 0
    public var imageCRC: UInt32 = 0
    /// Offset and CRC at the end of the last executed data object (`*_last`).
    public var imageOffsetLast = 0
    public var imageCRCLast: UInt32 = 0

    public init() {}

    public var commandOffset: Int { initCommand.count }
}

/// What survives a reset: the bootloader's settings page (stored progress and init command, whether
/// that init command was validated, the installed versions, the name a buttonless app asked the
/// bootloader to advertise) and the flash bank the image is received into.
public struct NordicDFUSettings: Sendable, Equatable {
    public var progress = NordicDFUProgress()
    /// `m_valid_init_cmd_present` as reloaded from flash: an executed init command was stored.
    public var initCommandValid = false
    /// The init command as validated, when `initCommandValid` (the decoded `m_packet`).
    var accepted: NordicInitValidator.Accepted?
    /// `app_version`: the fw_version of the running application.
    public var appVersion: UInt32
    /// `bootloader_version`.
    public var bootloaderVersion: UInt32
    /// Set by buttonless `02`; nil: `DfuTarg`.
    public var advertisedName: String?
    /// Bank 1 as written so far (flash: the stored progress may say less was received).
    var bank: [UInt8] = []

    public init(appVersion: UInt32, bootloaderVersion: UInt32) {
        self.appVersion = appVersion
        self.bootloaderVersion = bootloaderVersion
    }
}
