/// Sizes fixed by the nRF5 SDK's serial DFU transports (SDK 15 and later: `nrf_dfu_serial.c`,
/// `nrf_dfu_serial_uart.c`, `nrf_dfu_serial_usb.c`), from which the host derives its own limits.
public enum NordicSerialLimits {
    /// The longest response `response_send` (`nrf_dfu_serial.c`) builds: `60 <op> <result>` and the
    /// five u32 fields of a Hardware Version answer.
    public static let longestResponse = 3 + NordicHardwareVersion.encodedCount

    /// The most decoded bytes the host accepts in one response frame. `response_send` serialises
    /// into a buffer of `NRF_SERIAL_MAX_RESPONSE_SIZE` = `sizeof(nrf_dfu_response_t)` bytes
    /// (`nrf_dfu_serial.h`): two enum fields and a 20-byte union, so 24 bytes with one-byte enums
    /// and 28 with four-byte ones. The larger is used: no response the bootloader can build is
    /// refused, and a longer frame is line noise, not a response.
    public static let maximumResponseFrameSize = 28

    /// The MTU a UART bootloader reports: `UART_SLIP_MTU` = 2 × (`RX_BUF_SIZE` 64 + 1) + 1, the
    /// worst-case SLIP encoding of an opcode and 64 data bytes (`nrf_dfu_serial_uart.c`).
    public static let uartMTU: UInt16 = 131

    /// The MTU a USB CDC ACM bootloader reports: `SLIP_MTU` = 2 × (`RX_BUF_SIZE` 1024 + 1) + 1
    /// (`nrf_dfu_serial_usb.c`).
    public static let usbMTU: UInt16 = 2051
}
