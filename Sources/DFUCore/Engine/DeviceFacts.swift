/// What the engine learned about the device before the transfer; nil where the device did not say.
public struct DeviceFacts: Sendable, Equatable {
    /// The running version as an MCUboot version: slot 0's; for a Nordic application, its firmware
    /// revision read as nrfutil writes a version into fw_version (for the downgrade check).
    public var runningVersion: ImageVersion?
    /// The running version in the device's own words where they are not MCUboot's: a Nordic
    /// application's firmware revision, as it reports it. Nil: `runningVersion` says it.
    public var runningVersionText: String?
    /// SHA256 TLV of the image in slot 0, as the device reports it.
    public var runningHash: [UInt8]?
    public var batteryLevel: Int?
    public var firmwareRevision: String?
    /// Usable size of the secondary slot, when the device reports slot info.
    public var slotSize: Int?
    /// MCUmgr buffer size and count (`buf_size`, `buf_count`), when the device reports them.
    public var bufferSize: Int?
    public var bufferCount: Int?
    /// MCUboot mode (bootloader info), when reported.
    public var bootloaderMode: String?
    /// `bootloaderMode` of a device read in MCUboot's serial recovery, whose list names only the
    /// images that pass the bootloader's checks, without state flags.
    public static let serialRecoveryMode = "MCUboot serial recovery"
    /// Set when the device updates in a way dfu does not support (a SUIT device, MCUboot's
    /// firmware loader mode): what it is and why, in words. A precondition failure for `flash`.
    public var unsupported: String?

    public init(runningVersion: ImageVersion? = nil, runningHash: [UInt8]? = nil, batteryLevel: Int? = nil,
                firmwareRevision: String? = nil, slotSize: Int? = nil, bufferSize: Int? = nil,
                bufferCount: Int? = nil, bootloaderMode: String? = nil) {
        self.runningVersion = runningVersion
        self.runningHash = runningHash
        self.batteryLevel = batteryLevel
        self.firmwareRevision = firmwareRevision
        self.slotSize = slotSize
        self.bufferSize = bufferSize
        self.bufferCount = bufferCount
        self.bootloaderMode = bootloaderMode
    }
}

extension DeviceFacts {
    /// The running version as the device states it, for people and records: `1.0.0+0` for an
    /// MCUboot image, a Nordic application's firmware revision as it reports it (`0.0.1`).
    public var statedVersion: String? { runningVersionText ?? runningVersion?.description }
}
