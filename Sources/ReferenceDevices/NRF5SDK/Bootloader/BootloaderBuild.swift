/// How the bootloader binary was built, where that changes what the request handler and the
/// validation do. The SDK's BLE examples define `BLE_STACK_SUPPORT_REQD` and, in SDK 17, set
/// `NRF_DFU_PROTOCOL_REDUCED`; its serial examples (`secure_bootloader/*_uart`, `*_usb`) link the MBR
/// only and cannot use the reduced set (nrf_dfu_serial.c: `#error Serial DFU (UART and USB) cannot
/// function with the reduced protocol set`).
struct BootloaderBuild: Sendable, Hashable {
    /// `BLE_STACK_SUPPORT_REQD`: the bootloader needs the SoftDevice (nrf_dfu_ver_validation.c
    /// `sd_req_ok`), and flash goes through the SoftDevice (nrf_dfu_flash.c `nrf_dfu_flash_init`).
    var bleStack: Bool
    /// `NRF_DFU_PROTOCOL_REDUCED`: op codes 0x00, 0x07, 0x09, 0x0A and 0x0B are not supported.
    var protocolReduced: Bool

    static func ble(_ sdk: SDKVersion) -> BootloaderBuild { BootloaderBuild(bleStack: true, protocolReduced: sdk.protocolReduced) }

    static let serial = BootloaderBuild(bleStack: false, protocolReduced: false)
}
