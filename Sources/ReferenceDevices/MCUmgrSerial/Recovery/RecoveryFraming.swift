extension MCUmgrSerial {
    /// boot_serial.c `BOOT_SERIAL_FRAME_MTU`: 124 base64 characters per line (127 minus the
    /// 2-byte marker and the newline).
    static let bootSerialFrameMTU = 124

    /// boot_serial.c `boot_serial_output` (SMP over console): length (header + body + 2) ‖
    /// header ‖ body ‖ CRC-16 of header and body, all base64-encoded at once, then cut every 124
    /// characters; the first piece after `06 09`, the others after `04 14`, each ending in `\n`.
    static func mcubootConsoleFrames(_ packet: [UInt8]) -> [UInt8] {
        let crc = CRC16.xmodem(packet)
        let total = UInt16(truncatingIfNeeded: packet.count + 2)
        let raw = [UInt8(total >> 8), UInt8(truncatingIfNeeded: total)] + packet + [UInt8(crc >> 8), UInt8(truncatingIfNeeded: crc)]
        let encoded = Base64.encode(raw)
        var out: [UInt8] = []
        var offset = 0
        while offset < encoded.count {
            out += offset == 0 ? ConsoleMarker.packet : ConsoleMarker.continuation
            let count = min(bootSerialFrameMTU, encoded.count - offset)
            out += encoded[offset..<offset + count]
            out.append(UInt8(ascii: "\n"))
            offset += count
        }
        return out
    }

    /// boot_serial.c `boot_serial_in_dec` and the state it keeps in `dec_buf`/`dec_off`.
    struct RecoveryDecoder: Equatable {
        /// `dec_buf[0..<dec_off]`.
        private(set) var decoded: [UInt8] = []
        /// `max_input`: the size of `in_buf`, `MCUBOOT_SERIAL_MAX_RECEIVE_SIZE + 1`.
        let capacity: Int

        enum Outcome: Equatable {
            /// A complete packet: SMP header and body, without length and CRC.
            case packet([UInt8])
            case incomplete
            /// base64 failed; what was decoded so far stays.
            case decodeError
            case notFrame
            case crcMismatch
        }

        init(maxReceiveSize: Int) {
            capacity = maxReceiveSize + 1
        }

        /// One line from `console_read` (the serial adapter's line, at most `str_size - 1` bytes).
        mutating func line(_ line: [UInt8]) -> Outcome {
            let kept = Array(line.prefix(capacity - 1))
            // `console_read` returns len + 1 (the NUL it appends); `boot_serial_in_dec` gets
            // in_buf + 2 and decodes `inlen - 2` characters: the line minus its marker and its last
            // byte (normally the `\n`; a `\r` before it is then a base64 error).
            guard kept.count >= 2 else { return .notFrame }
            let start = kept[0] == 0x06 && kept[1] == 0x09
            let more = kept[0] == 0x04 && kept[1] == 0x14
            guard start || more else { return .notFrame }
            if start { decoded = [] }
            let characters = max(0, kept.count - 3)
            switch Base64.decode(kept[2..<2 + characters], capacity: capacity - decoded.count) {
            case .invalid, .noRoom:
                return .decodeError
            case .bytes(let bytes):
                decoded += bytes
            }
            guard decoded.count > 2, let length = ByteReading.be16(decoded, at: 0) else { return .incomplete }
            guard Int(length) == decoded.count - 2 else { return .incomplete }
            let body = Array(decoded[2...])
            guard length > 2, CRC16.xmodem(body) == 0 else { return .crcMismatch }
            decoded.removeLast(2)
            return .packet(Array(body.dropLast(2)))
        }
    }
}
