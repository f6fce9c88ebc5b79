/// Where the nRF5 SDK 17.1 puts things in an nRF52's flash, with the SoftDevice that SDK's BLE
/// examples build against for the chip: MBR, SoftDevice, application, the data the application
/// keeps below the bootloader, the bootloader, the MBR parameters page and the settings page.
///
/// Sources (nRF5 SDK 17.1.0, read in the greenlsi/nrf5-sdk import @bd4841e):
/// - bootloader start and length, MBR parameters page, settings page:
///   `examples/dfu/secure_bootloader/{pca10040_s132_ble, pca10100_s140_ble, pca10056_s140_ble}/armgcc/secure_bootloader_gcc_nrf52.ld`
///   (nRF52832, nRF52833, nRF52840), the same addresses as `NRF_MBR_PARAMS_PAGE_ADDRESS` and
///   `BOOTLOADER_SETTINGS_ADDRESS` in `components/libraries/bootloader/dfu/nrf_dfu_types.h`;
/// - application start (the end of MBR + SoftDevice 7.2.0):
///   `examples/ble_peripheral/ble_app_buttonless_dfu/pca10040/s132/armgcc/ble_app_buttonless_dfu_gcc_nrf52.ld` (0x26000),
///   `…/ble_app_buttonless_dfu/pca10056/s140/armgcc/ble_app_buttonless_dfu_gcc_nrf52.ld` (0x27000), and for
///   the nRF52833, which has no buttonless example, `examples/ble_peripheral/ble_app_uart/pca10100/s140/armgcc/ble_app_uart_gcc_nrf52.ld` (0x27000);
/// - `MBR_SIZE` 0x1000: `components/softdevice/mbr/headers/nrf_mbr.h`;
/// - `NRF_DFU_APP_DATA_AREA_SIZE`: each bootloader's `config/sdk_config.h` (12288, 8192, 12288);
/// - the SoftDevices: S132 and S140 7.2.0 ship with SDK 17.1 (`components/softdevice/s132|s140`);
///   their FWIDs 0x0101 and 0x0100 are pc-nrfutil's `--sd-req` table (`nordicsemi/__main__.py`).
///
/// Whether an update fits (`updateCapacity`) is decided by `nrf_dfu_cache_prepare`
/// (`components/libraries/bootloader/dfu/nrf_dfu_utils.c`), called from `update_data_addr_get`
/// (`nrf_dfu_validation.c`) at Execute(command): the image goes above the running application
/// (dual bank) when it fits there; otherwise, as `NRF_DFU_FORCE_DUAL_BANK_APP_UPDATES` is 0, the
/// application is given up and the image goes where it starts (single bank); the SoftDevice is
/// always kept by a BLE bootloader (`DFU_REQUIRES_SOFTDEVICE`). Either way the image must end by
/// `DFU_REGION_END` = bootloader start − `NRF_DFU_APP_DATA_AREA_SIZE` (`nrf_dfu_types.h`), else the
/// answer is INSUFFICIENT RESOURCES (0x04). The simulator models that limit; it keeps the running
/// application valid even where the SDK would have given it up (it does not model its size).
public struct NordicChipLayout: Sendable, Hashable, CustomStringConvertible {
    /// The option value: `nrf52832`, `nrf52833`, `nrf52840`.
    public let name: String
    public let flashSize: Int
    /// The SoftDevice the SDK's examples use on this chip, e.g. "S132 7.2.0".
    public let softDevice: String
    public let softDeviceFWID: UInt32
    /// The first address after MBR and SoftDevice (bank 0).
    public let applicationStart: Int
    public let bootloaderStart: Int
    /// `NRF_MBR_PARAMS_PAGE_ADDRESS`: one page, after the bootloader.
    public let mbrParamsPage: Int
    /// `BOOTLOADER_SETTINGS_ADDRESS`: the last page.
    public let settingsPage: Int
    /// `NRF_DFU_APP_DATA_AREA_SIZE`: pages under the bootloader kept for the application's data
    /// (FDS), never written by an update.
    public let applicationDataSize: Int

    /// `MBR_SIZE`: the first page.
    public static let mbrSize = 0x1000
    /// `CODE_PAGE_SIZE` on nRF52.
    public static let pageSize = 0x1000

    public var softDeviceSize: Int { applicationStart - Self.mbrSize }
    /// `BOOTLOADER_SIZE` (`nrf_bootloader_info.h` on nRF52): the MBR parameters page − bootloader start.
    public var bootloaderSize: Int { mbrParamsPage - bootloaderStart }
    /// Application start to bootloader start, the application data included.
    public var applicationArea: Int { bootloaderStart - applicationStart }
    /// The largest update the bootloader takes: from the application start to `DFU_REGION_END`.
    public var updateCapacity: Int { bootloaderStart - applicationDataSize - applicationStart }

    public var description: String { "\(name) with \(softDevice)" }

    public static let nrf52832 = NordicChipLayout(
        name: "nrf52832", flashSize: 0x80000, softDevice: "S132 7.2.0", softDeviceFWID: 0x0101,
        applicationStart: 0x26000, bootloaderStart: 0x78000, mbrParamsPage: 0x7E000, settingsPage: 0x7F000,
        applicationDataSize: 0x3000)

    public static let nrf52833 = NordicChipLayout(
        name: "nrf52833", flashSize: 0x80000, softDevice: "S140 7.2.0", softDeviceFWID: 0x0100,
        applicationStart: 0x27000, bootloaderStart: 0x78000, mbrParamsPage: 0x7E000, settingsPage: 0x7F000,
        applicationDataSize: 0x2000)

    public static let nrf52840 = NordicChipLayout(
        name: "nrf52840", flashSize: 0x100000, softDevice: "S140 7.2.0", softDeviceFWID: 0x0100,
        applicationStart: 0x27000, bootloaderStart: 0xF8000, mbrParamsPage: 0xFE000, settingsPage: 0xFF000,
        applicationDataSize: 0x3000)

    public static let all: [NordicChipLayout] = [.nrf52832, .nrf52833, .nrf52840]

    /// The layout named `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> NordicChipLayout? {
        all.first { $0.name == name.lowercased() }
    }
}
