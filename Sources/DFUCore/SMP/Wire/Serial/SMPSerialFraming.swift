/// The numbers of SMP's console framing ("SMP over console": Zephyr's UART and shell transports,
/// MCUboot's serial recovery). One packet travels as
///
///     base64( total length (u16 BE) · packet · CRC-16/XMODEM of the packet (u16 BE) )
///
/// cut into lines, the first opened by `SMPSerialMarker.start`, the rest by `.continuation`, each
/// ended by '\n'. The total length counts the packet and the CRC, not itself (Zephyr
/// `serial_util.c`, `mcumgr_serial_tx_pkt` writes `len + 2`; `doc/services/device_mgmt/
/// smp_transport.rst`, "UART/serial and console").
public enum SMPSerialFraming {
    /// Zephyr's `MCUMGR_SERIAL_MAX_FRAME`: the longest line, marker and newline included, so 124
    /// base64 characters (`serial.h`; `smp_transport.rst`: "the allowed payload size is actually
    /// 124 bytes"). The receiving buffers agree: the shell transport keeps 127 bytes a line
    /// (`SMP_SHELL_RX_BUF_SIZE`, `smp_shell.h`) and the UART driver 128 by default
    /// (`CONFIG_UART_MCUMGR_RX_BUF_SIZE`).
    public static let defaultMaximumLineLength = 127

    /// A line that carries anything: marker, one 4-character group, newline.
    public static let minimumLineLength = 7

    /// The length field and the CRC around the packet.
    public static let overhead = 4

    /// The largest packet the 16-bit total length can describe (it also counts the 2-byte CRC).
    public static let maximumPacketSize = Int(UInt16.max) - 2

    /// Base64 characters a line of `maximumLineLength` bytes carries: whole groups after the
    /// marker and before the newline (`mcumgr_serial_tx_pkt`: `(MCUMGR_SERIAL_MAX_FRAME - 3) >> 2`
    /// groups).
    public static func base64CharactersPerLine(maximumLineLength: Int) -> Int {
        max(0, (maximumLineLength - 3) / 4 * 4)
    }
}
