import DFUCore

/// How the simulated bootloader was built and what the device has installed: the build-time
/// values of the SDK's `sdk_config.h` that the DFU checks read, and the versions in its settings.
public struct NordicBootloaderConfiguration: Sendable {
    /// The key the bootloader verifies init packets with (its compiled-in `pk`).
    public var key: PublicKey
    public var sdk: NordicSDKVersion
    /// `NRF_DFU_HW_VERSION`.
    public var hardwareVersion: UInt32
    /// The FWID of the installed SoftDevice (read at MBR_SIZE + 0x0C on a device).
    public var softDeviceFWID: UInt32
    /// `NRF_DFU_APP_DOWNGRADE_PREVENTION`.
    public var downgradePrevention: Bool
    /// `app_version` of the application installed at the start.
    public var appVersion: UInt32
    public var bootloaderVersion: UInt32
    /// Packet writes (1-based, counted over the bootloader's life) dropped as if its BLE buffer
    /// pool were full (`nrf_balloc_alloc` failing in `on_write`): invisible but in offset and CRC.
    public var droppedPacketWrites: Set<Int>
    /// Where the bootloader closes the link itself (`NordicLinkDrop`), to try a central's resume.
    public var linkDrops: Set<NordicLinkDrop> = []
    /// `NRF_BL_DFU_INACTIVITY_TIMEOUT_MS`; nil never times out (for an unpaced link clock, where
    /// a pending timer jumps model time to its deadline whenever the link is idle).
    public var inactivityTimeout: Duration?
    /// `NRF_BL_DFU_CONTINUATION_TIMEOUT_MS`: how long DFU mode waits for the application after a
    /// SoftDevice was activated (off with `inactivityTimeout`).
    public var continuationTimeout: Duration? = .seconds(10)
    /// The chip and its flash layout: how large an update may be.
    public var chip: NordicChipLayout
    /// Room for an update: the application area up to the application's data below the
    /// bootloader (`NordicChipLayout.updateCapacity`).
    public var updateCapacity: Int { chip.updateCapacity }
    /// `BOOTLOADER_SIZE`: the most a bootloader update may hold.
    public var bootloaderCapacity: Int { chip.bootloaderSize }

    /// `softDeviceFWID` nil: the chip's SoftDevice (S132 on an nRF52832, S140 on the others).
    public init(key: PublicKey, sdk: NordicSDKVersion = .sdk17, chip: NordicChipLayout = .nrf52832,
                hardwareVersion: UInt32 = 52, softDeviceFWID: UInt32? = nil, downgradePrevention: Bool = true,
                appVersion: UInt32 = 1, bootloaderVersion: UInt32 = 1, droppedPacketWrites: Set<Int> = [],
                inactivityTimeout: Duration? = .seconds(120)) {
        self.key = key
        self.sdk = sdk
        self.chip = chip
        self.hardwareVersion = hardwareVersion
        self.softDeviceFWID = softDeviceFWID ?? chip.softDeviceFWID
        self.downgradePrevention = downgradePrevention
        self.appVersion = appVersion
        self.bootloaderVersion = bootloaderVersion
        self.droppedPacketWrites = droppedPacketWrites
        self.inactivityTimeout = inactivityTimeout
    }

    /// `DATA_OBJECT_MAX_SIZE` and `CODE_PAGE_SIZE` on nRF52: one 4 KiB flash page.
    public static let dataObjectMaxSize = 4096
}
