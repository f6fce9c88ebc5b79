/// Base64 as SMP's serial framing carries it: the standard alphabet (A–Z a–z 0–9 + /) in whole
/// 4-character groups, with '=' padding only in the last group of a line. Zephyr and MCUboot
/// decode each line on its own (`serial_util.c`, `mcumgr_serial_decode_frag`; `boot_serial.c`,
/// `boot_serial_in_dec`), and every encoder we know writes whole groups per line (Zephyr's
/// `mcumgr_serial_tx_small` always emits 4 characters), so a line that is not whole groups is
/// garbage here rather than something to guess about.
enum SMPSerialBase64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let padding = UInt8(ascii: "=")
    /// Value of each ASCII character, 0xFF for characters outside the alphabet.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { values[Int(character)] = UInt8(value) }
        return values
    }()

    /// Number of characters `byteCount` bytes encode to.
    static func encodedCount(_ byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

    /// Whole padded groups.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encodedCount(bytes.count))
        var index = 0
        while index < bytes.count {
            let available = min(3, bytes.count - index)
            let b0 = bytes[index]
            let b1 = available > 1 ? bytes[index + 1] : 0
            let b2 = available > 2 ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(available > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : padding)
            out.append(available > 2 ? alphabet[Int(b2 & 0x3F)] : padding)
            index += 3
        }
        return out
    }

    /// The bytes of one line's characters, or nil when they are not whole groups of the alphabet
    /// with padding only at the end (no characters is no bytes).
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var index = text.startIndex
        while index < text.endIndex {
            let isLast = index + 4 == text.endIndex
            let c2 = text[index + 2], c3 = text[index + 3]
            let v0 = values[Int(text[index])], v1 = values[Int(text[index + 1])]
            guard v0 != 0xFF, v1 != 0xFF else { return nil }
            out.append(v0 << 2 | v1 >> 4)
            if c2 == padding {
                // "xx==": one byte, and only in the last group.
                guard isLast, c3 == padding else { return nil }
            } else {
                let v2 = values[Int(c2)]
                guard v2 != 0xFF else { return nil }
                out.append((v1 & 0x0F) << 4 | v2 >> 2)
                if c3 == padding {
                    guard isLast else { return nil }
                } else {
                    let v3 = values[Int(c3)]
                    guard v3 != 0xFF else { return nil }
                    out.append((v2 & 0x03) << 6 | v3)
                }
            }
            index += 4
        }
        return out
    }
}
