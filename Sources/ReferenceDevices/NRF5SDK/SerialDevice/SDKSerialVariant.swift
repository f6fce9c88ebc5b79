/// Which serial transport the bootloader is built with: `secure_bootloader/*_uart` links
/// nrf_dfu_serial_uart.c, `secure_bootloader/*_usb` nrf_dfu_serial_usb.c (USB CDC ACM). Both share
/// nrf_dfu_serial.c and slip.c; they differ in buffer sizes.
public enum SDKSerialVariant: String, Sendable, Hashable, CaseIterable {
    case uart
    case usb

    /// `RX_BUF_SIZE`: 64 in nrf_dfu_serial_uart.c ("to get 64bytes payload"), 1024 in
    /// nrf_dfu_serial_usb.c.
    public var receiveBufferSize: Int { self == .uart ? 64 : 1024 }

    /// `UART_SLIP_MTU` / `SLIP_MTU` = 2 × (RX_BUF_SIZE + 1) + 1: 131 for UART, 2051 for USB. It is
    /// both the MTU the transport reports (MTU Get answers it) and the SLIP decoder's `buffer_len`,
    /// in decoded bytes. A frame must decode to fewer bytes than this: the END after exactly this many
    /// is already refused.
    public var slipMTU: Int { 2 * (receiveBufferSize + 1) + 1 }

    /// The balloc block size, `SLIP_MTU + 1` (132 / 2052, already a multiple of 4). The decoder
    /// writes from byte 3 of a block up to `slipMTU` bytes, so its last two bytes land in the next
    /// block's first two, which nothing reads (not modelled: past the last block they land in
    /// whatever RAM follows the pool).
    public var blockSize: Int { slipMTU + 1 }
}
