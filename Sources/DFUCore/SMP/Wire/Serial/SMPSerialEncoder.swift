/// Frames one SMP packet (header and CBOR body) as console lines. Sans-I/O: it returns bytes.
///
/// The length, packet and CRC are base64-encoded as one text, which is cut into lines of as many
/// whole 4-character groups as fit `maximumLineLength` (marker and '\n' included). This is byte for
/// byte what smpclient writes with its default line length (`smp` `packet.py`, `encode`, called
/// with `line_length=128`, whose 4-byte allowance leaves the same 124 characters), and how MCUboot's
/// serial recovery cuts its answers (`boot_serial.c`, `boot_serial_output`, 124 characters a line).
/// Zephyr's own sender (`serial_util.c`, `mcumgr_serial_tx_pkt`) breaks lines differently: its
/// later lines carry 120 characters, and it never lets the CRC start a line of its own. Every
/// decoder decodes lines one by one, so the break points do not matter to a receiver; only the
/// line length does, and 127 is what Zephyr's receive buffers hold (`SMPSerialFraming`).
public struct SMPSerialEncoder: Sendable, Hashable {
    /// Longest line written, marker and newline included.
    public let maximumLineLength: Int

    /// Lines of Zephyr's `MCUMGR_SERIAL_MAX_FRAME` (127 bytes).
    public init() {
        maximumLineLength = SMPSerialFraming.defaultMaximumLineLength
    }

    /// Lines of at most `maximumLineLength` bytes; at least `SMPSerialFraming.minimumLineLength`.
    public init(maximumLineLength: Int) throws(SMPSerialEncodingError) {
        guard maximumLineLength >= SMPSerialFraming.minimumLineLength else {
            throw .lineLengthTooSmall(maximumLineLength, minimum: SMPSerialFraming.minimumLineLength)
        }
        self.maximumLineLength = maximumLineLength
    }

    /// Base64 characters on each full line.
    public var charactersPerLine: Int {
        SMPSerialFraming.base64CharactersPerLine(maximumLineLength: maximumLineLength)
    }

    /// The packet's lines, each with its marker and newline. An empty packet still makes one line
    /// (its length and CRC), though no SMP packet is shorter than its 8-byte header.
    public func lines(for packet: [UInt8]) throws(SMPSerialEncodingError) -> [[UInt8]] {
        guard packet.count <= SMPSerialFraming.maximumPacketSize else {
            throw .packetTooLarge(size: packet.count, maximum: SMPSerialFraming.maximumPacketSize)
        }
        let total = UInt16(packet.count + 2)
        let crc = CRC16XMODEM.checksum(packet)
        var framed: [UInt8] = [UInt8(total >> 8), UInt8(truncatingIfNeeded: total)]
        framed.reserveCapacity(packet.count + SMPSerialFraming.overhead)
        framed.append(contentsOf: packet)
        framed.append(UInt8(crc >> 8))
        framed.append(UInt8(truncatingIfNeeded: crc))
        let text = SMPSerialBase64.encode(framed)

        var lines: [[UInt8]] = []
        var start = 0
        while start < text.count {
            let end = min(start + charactersPerLine, text.count)
            let marker: SMPSerialMarker = start == 0 ? .start : .continuation
            lines.append(marker.bytes + text[start..<end] + [UInt8(ascii: "\n")])
            start = end
        }
        return lines
    }

    /// The lines back to back: what goes to the serial port.
    public func encode(_ packet: [UInt8]) throws(SMPSerialEncodingError) -> [UInt8] {
        try lines(for: packet).flatMap { $0 }
    }
}
