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
