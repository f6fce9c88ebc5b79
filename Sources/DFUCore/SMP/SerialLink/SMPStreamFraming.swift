/// How SMP packets travel on a serial byte stream (docs/serial.md): Zephyr's console framing
/// (`CONFIG_MCUMGR_TRANSPORT_UART`, the shell transport, MCUboot's serial recovery) or raw packets
/// (`CONFIG_MCUMGR_TRANSPORT_RAW_UART`, MCUboot's `MCUBOOT_SERIAL_RAW_PROTOCOL`).
public enum SMPStreamFraming: String, Sendable, Hashable, CustomStringConvertible {
    case console
    case raw

    /// Bytes of each device buffer the framing takes besides the packet. Zephyr decodes a console
    /// frame's length, packet and CRC into one `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE` buffer
    /// (`serial_util.c`, `mcumgr_serial_process_frag`), so a request is at most `buf_size − 4`; a
    /// raw packet is the packet alone.
    public var bufferOverhead: Int {
        switch self {
        case .console: return SMPSerialFraming.overhead
        case .raw: return 0
        }
    }

    /// The largest packet the framing can carry: the console's 16-bit total counts the CRC, the
    /// raw header's 16-bit length counts only the body.
    public var maximumPacketSize: Int {
        switch self {
        case .console: return SMPSerialFraming.maximumPacketSize
        case .raw: return SMPHeader.size + Int(UInt16.max)
        }
    }

    /// The device buffer assumed while the device has not reported `buf_size`: Zephyr's
    /// `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE` default for every transport but UDP (384,
    /// `subsys/mgmt/mcumgr/transport/Kconfig`).
    public static let assumedBufferSize = 384

    /// Packet bytes per byte on the wire, for the line's ceiling: a console line of 127 bytes
    /// carries 124 base64 characters, 93 bytes; raw carries the packet as it is.
    public var efficiency: Double {
        switch self {
        case .console:
            let characters = SMPSerialFraming.base64CharactersPerLine(maximumLineLength: SMPSerialFraming.defaultMaximumLineLength)
            return Double(characters / 4 * 3) / Double(SMPSerialFraming.defaultMaximumLineLength)
        case .raw:
            return 1
        }
    }

    public var description: String { rawValue }
}
