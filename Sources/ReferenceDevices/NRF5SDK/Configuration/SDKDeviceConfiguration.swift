import DFUCore
import Transport

/// Everything an `SDKDevice` is built from. The defaults are the SDK 17.0 secure BLE bootloader
/// example for an nRF52832 with S132 (`examples/dfu/secure_bootloader/pca10040_s132_ble/config/
/// sdk_config.h`, nrf_dfu_types.h, nrf_bootloader_info.h) and the buttonless application example.
public struct SDKDeviceConfiguration: Sendable {
    /// The SDK the bootloader and the buttonless service come from.
    public var sdkVersion: SDKVersion = .v17_0
    /// The P-256 key the bootloader checks init packets with (the `pk[64]` compiled into it).
    public var publicKey: PublicKey

    // MARK: Identity and advertising
    /// The application's address (`AA:BB:CC:DD:EE:FF`), also its `PeerIdentity`.
    public var applicationIdentity = PeerIdentity("F0:12:34:56:78:9A")
    /// The name the application advertises (the SDK buttonless example's `DEVICE_NAME`).
    public var applicationName = "Nordic_Buttonless"
    /// Where the bootloader advertises; the SDK default adds one to the last octet.
    public var bootloaderAddress = BootloaderAddress.incrementedApplicationAddress
    /// `NRF_DFU_BLE_ADV_NAME`: the bootloader's name unless set-name stored another.
    public var defaultBootloaderName = "DfuTarg"
    /// What op code 0x02 on the buttonless characteristic does.
    public var buttonless = ButtonlessSupport.setName
    /// Battery Service 0x180F level, percent.
    public var batteryLevel: UInt8 = 100

    // MARK: Versions and hardware
    /// `NRF_DFU_HW_VERSION`.
    public var hardwareVersion: UInt32 = 52
    /// The FWID of the installed SoftDevice: read at `MBR_SIZE + 0x0C` by nrf_dfu_ver_validation.c
    /// `sd_req_check`. 0x0101 is the FWID pc-nrfutil 6.1.7 lists for S132 7.2.0 (SDK 17.0 itself
    /// ships S132 7.0.1, FWID 0xCB).
    public var softDeviceFWID: UInt32 = 0x0101
    /// `SD_PRESENT`: a SoftDevice's magic number at `MBR_SIZE`. A BLE bootloader needs one; a serial
    /// bootloader (built with the MBR only) checks at run time (`sd_req_ok`, `on_fw_version_request`).
    public var softDevicePresent = true
    /// `SD_VERSION_GET(MBR_SIZE)`: major × 1 000 000 + minor × 1 000 + bugfix (nrf_sdm.h
    /// `SD_VERSION`), as the Firmware Version request reports it.
    public var softDeviceVersion: UInt32 = 7_002_000
    /// The chip's FICR, as the Hardware Version request reports it.
    public var chip = SDKChip.nRF52832
    /// The installed application's version (`s_dfu_settings.app_version`).
    public var installedApplicationVersion: UInt32 = 1
    /// The installed application's size in bytes (`bank_0.image_size`): where bank 1 starts.
    public var installedApplicationSize: UInt32 = 0x8000
    /// `s_dfu_settings.bootloader_version`.
    public var bootloaderVersion: UInt32 = 1

    // MARK: Flash layout (nRF52832 with S132)
    /// Start of the application area, the end of the SoftDevice (`nrf_dfu_bank0_start_addr`).
    public var applicationStart: UInt32 = 0x26000
    /// `BOOTLOADER_START_ADDR`.
    public var bootloaderStart: UInt32 = 0x78000
    /// `BOOTLOADER_SIZE`: the MBR parameter page (0x7E000) minus the bootloader start.
    public var bootloaderSize: UInt32 = 0x6000
    /// `NRF_DFU_APP_DATA_AREA_SIZE`: kept free below the bootloader (`DFU_REGION_END`).
    public var applicationDataAreaSize: UInt32 = 12288
    /// `CODE_PAGE_SIZE` on nRF52; also `DATA_OBJECT_MAX_SIZE`.
    public var pageSize: UInt32 = 4096
    /// `NRF_SDH_BLE_GATT_MAX_MTU_SIZE`: Packet writes longer than this minus 3 are dropped.
    public var maximumMTU = 247

    // MARK: Bootloader policy (sdk_config.h)
    /// `NRF_DFU_REQUIRE_SIGNED_APP_UPDATE`.
    public var requireSignedApplicationUpdate = true
    /// `NRF_DFU_APP_DOWNGRADE_PREVENTION`.
    public var applicationDowngradePrevention = true
    /// `NRF_DFU_APP_ACCEPT_SAME_VERSION`.
    public var acceptSameApplicationVersion = true
    /// `NRF_DFU_SINGLE_BANK_APP_UPDATES`.
    public var singleBankApplicationUpdates = false
    /// `NRF_DFU_FORCE_DUAL_BANK_APP_UPDATES`.
    public var forceDualBankApplicationUpdates = false
    /// `NRF_DFU_SAVE_PROGRESS_IN_FLASH`: store progress after every executed data object, so it
    /// survives a reset (and, in SDK 17, a link loss).
    public var saveProgressInFlash = false
    /// `NRF_BL_DFU_INACTIVITY_TIMEOUT_MS`: restarted on Create(command) and on each executed data
    /// object (nrf_bootloader.c `dfu_observer`); when it expires the bootloader resets.
    public var inactivityTimeout: Duration = .milliseconds(120_000)

    // MARK: Model-only
    /// From a reset until the next image advertises (the SDK has no such number; 0 boots at once).
    public var bootTime: Duration = .milliseconds(100)
    /// Link drops to inject.
    public var faults = SDKFaultPlan.none

    public init(publicKey: PublicKey) {
        self.publicKey = publicKey
    }

    /// The bootloader's identity; the application's own when the rule cannot apply to its text.
    public var bootloaderIdentity: PeerIdentity {
        bootloaderAddress.identity(forApplicationAt: applicationIdentity) ?? applicationIdentity
    }

    /// `MAX_DFU_PKT_LEN` (nrf_dfu_ble.c).
    var maximumPacketLength: Int { maximumMTU - 3 }

    /// `DFU_REGION_END(BOOTLOADER_START_ADDR)` (nrf_dfu_types.h).
    var dfuRegionEnd: UInt32 { bootloaderStart &- applicationDataAreaSize }

    func alignedToPage(_ address: UInt32) -> UInt32 {
        let remainder = address % pageSize
        return remainder == 0 ? address : address &+ (pageSize - remainder)
    }
}
