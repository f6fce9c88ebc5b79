extension MCUmgrSerial {
    /// serial.h: packet start `06 09`, continuation `04 14`, `MCUMGR_SERIAL_MAX_FRAME` 127 (marker,
    /// base64 body and newline included).
    enum ConsoleMarker {
        static let packet: [UInt8] = [0x06, 0x09]        // MCUMGR_SERIAL_HDR_PKT
        static let continuation: [UInt8] = [0x04, 0x14]  // MCUMGR_SERIAL_HDR_FRAG
        static let maximumFrame = 127                    // MCUMGR_SERIAL_MAX_FRAME
    }

    /// serial_util.c `mcumgr_serial_tx_pkt`, the application's line breaking, ported step by step:
    /// the body is base64-encoded three bytes at a time (`mcumgr_serial_tx_small`); the first line
    /// carries the big-endian length (body + 2) with the first body byte; the CRC never splits
    /// across lines (a byte is held back for the next line instead); `max_input` is reduced by 3 on
    /// the first line and never restored, so continuation lines carry 90 body bytes, not 93.
    static func zephyrConsoleFrames(_ packet: [UInt8]) -> [UInt8] {
        guard !packet.isEmpty else { return [] }
        var out: [UInt8] = []
        var maxInput = ((ConsoleMarker.maximumFrame - 3) >> 2) * 3
        let crc = CRC16.xmodem(packet)
        let crcHigh = UInt8(crc >> 8), crcLow = UInt8(truncatingIfNeeded: crc)
        var marker = ConsoleMarker.packet
        var first = true
        var last = false
        var offset = 0
        let length = packet.count
        while offset < length {
            out += marker
            if first {
                let total = UInt16(truncatingIfNeeded: length + 2)
                out += Base64.encode([UInt8(total >> 8), UInt8(truncatingIfNeeded: total), packet[0]])
                offset += 1
                maxInput -= 3
            }
            var toProcess = min(maxInput, length - offset)
            let reminder = maxInput - (length - offset)
            if reminder == 0 || reminder == 1 {
                toProcess -= 1
                last = false
            } else if reminder >= 2 {
                last = true
            }
            while toProcess >= 3 {
                out += Base64.encode(Array(packet[offset..<offset + 3]))
                offset += 3
                toProcess -= 3
            }
            if last {
                switch length - offset {
                case 0:
                    out += Base64.encode([crcHigh, crcLow])
                case 1:
                    out += Base64.encode([packet[offset], crcHigh, crcLow])
                    offset += 1
                case 2:
                    out += Base64.encode([packet[offset], packet[offset + 1], crcHigh])
                    out += Base64.encode([crcLow])
                    offset += 2
                default:
                    break
                }
            }
            out.append(UInt8(ascii: "\n"))
            marker = ConsoleMarker.continuation
            first = false
        }
        return out
    }
}
