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
    /// Room for an update in the application area: nRF52832 with S132, app from 0x26000 to the
    /// bootloader at 0x78000.
    public var updateCapacity: Int
    /// `BOOTLOADER_SIZE`: 0x78000 to 0x7E000 on nRF52832.
    public var bootloaderCapacity: Int

    public init(key: PublicKey, sdk: NordicSDKVersion = .sdk17, hardwareVersion: UInt32 = 52,
                softDeviceFWID: UInt32 = 0x0101, downgradePrevention: Bool = true, appVersion: UInt32 = 1,
                bootloaderVersion: UInt32 = 1, droppedPacketWrites: Set<Int> = [],
                inactivityTimeout: Duration? = .seconds(120), updateCapacity: Int = 0x52000,
                bootloaderCapacity: Int = 0x6000) {
        self.key = key
        self.sdk = sdk
        self.hardwareVersion = hardwareVersion
        self.softDeviceFWID = softDeviceFWID
        self.downgradePrevention = downgradePrevention
        self.appVersion = appVersion
        self.bootloaderVersion = bootloaderVersion
        self.droppedPacketWrites = droppedPacketWrites
        self.inactivityTimeout = inactivityTimeout
        self.updateCapacity = updateCapacity
        self.bootloaderCapacity = bootloaderCapacity
    }

    /// `DATA_OBJECT_MAX_SIZE` and `CODE_PAGE_SIZE` on nRF52: one 4 KiB flash page.
    public static let dataObjectMaxSize = 4096
}
