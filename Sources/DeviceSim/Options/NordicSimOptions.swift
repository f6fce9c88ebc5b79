/// The `sim:` options that only a Nordic device (`protocol=nordic`) reads; `SimOptions` holds them.
public struct NordicSimOptions: Sendable, Hashable {
    public var sdk: NordicSDKVersion = .sdk17
    /// `NRF_DFU_HW_VERSION`.
    public var hardwareVersion: UInt32 = 52
    /// `chip=`: the nRF52 and its flash layout.
    public var chip: NordicChipLayout = .nrf52832
    /// The installed SoftDevice's FWID; nil: the chip's (`NordicChipLayout.softDeviceFWID`).
    public var softDeviceFWID: UInt32?
    /// Packet writes (1-based) the bootloader drops as if its buffers were full.
    public var droppedPacketWrites: Set<Int> = []
    /// `drop=`: where the bootloader closes the link itself.
    public var linkDrops: Set<NordicLinkDrop> = []
    /// `cp_fault=`: Control Point answers the bootloader damages.
    public var notificationFaults: [NordicNotificationFault] = []
    /// `bl_version=`: the installed bootloader_version (a bootloader update must be newer).
    public var bootloaderVersion: UInt32 = 1
    /// `buttonless=plain|bonds|bonds-unpaired`: the application's buttonless service.
    public var buttonless: NordicButtonlessVariant = .withoutBonds
    /// `set_name=on|off|resets`: how the application answers buttonless set-name.
    public var setName: NordicSetNameSupport = .supported
    /// `bl_address=plus1|random|ADDRESS`: where the bootloader advertises; nil: plus1.
    public var bootloaderAddress: String?
    /// `bootloaders_nearby=N`: other nRF52s in range, each waiting in DFU mode as `DfuTarg`.
    public var bootloadersNearby = 0
    /// `inactivity=`: seconds, or nil for `off`.
    public var inactivityTimeout: Duration? = .seconds(120)
    /// `app_version` from `version=`; nil: `defaultAppVersion`.
    public var appVersion: UInt32?
    /// Which Nordic keys were given, to refuse them on an SMP device.
    var given: Set<String> = []
    /// A `version=` only Nordic reads (an integer, or M.m.r beyond MCUboot's fields), as written.
    var nordicOnlyVersion: String?
    /// A `version=` an SMP device takes but no app_version matches (e.g. 1.100.0), as written.
    var smpOnlyVersion: String?

    /// Below the samples' version 3, so `sim:protocol=nordic` accepts them with downgrade
    /// prevention on.
    public static let defaultAppVersion: UInt32 = 1

    public static let keys = ["chip", "sdk", "hw", "sd", "bl_version", "prn_drop", "drop", "inactivity", "buttonless",
                               "set_name", "bl_address", "bootloaders_nearby", "cp_fault"]

    public init() {}
}
