extension MCUmgrSerial {
    /// Zephyr's base64 (lib/os/base64.c, mbed TLS's adapted), which both the application transport
    /// and MCUboot's serial recovery use on Zephyr. Its decoder's quirks are the device's behaviour:
    /// - `\n` and `\r\n` are skipped anywhere; spaces only before a line end or at the very end;
    /// - at most two `=`, and no data character after one;
    /// - a trailing group of fewer than four characters is dropped without an error;
    /// - the output must fit in `capacity`, computed from the character count *before* the
    ///   trailing group is dropped (`base64_decode`'s first pass).
    enum Base64 {
        enum Decoded: Equatable {
            case bytes([UInt8])
            /// -EINVAL: a character outside the alphabet, a misplaced `=` or space.
            case invalid
            /// -ENOMEM: the output would not fit.
            case noRoom
        }

        private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

        /// 0–63 for the alphabet, 64 for `=`, nil otherwise (`base64_dec_map`'s 127).
        private static func value(of byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): return 62
            case UInt8(ascii: "/"): return 63
            case UInt8(ascii: "="): return 64
            default: return nil
            }
        }

        /// `base64_encode`: groups of three, `=` padding at the end only.
        static func encode(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity((bytes.count + 2) / 3 * 4)
            var index = 0
            while index < bytes.count {
                let c1 = bytes[index]
                let c2: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
                let c3: UInt8 = index + 2 < bytes.count ? bytes[index + 2] : 0
                out.append(alphabet[Int(c1 >> 2)])
                out.append(alphabet[Int(((c1 & 3) << 4) | (c2 >> 4))])
                out.append(index + 1 < bytes.count ? alphabet[Int(((c2 & 15) << 2) | (c3 >> 6))] : UInt8(ascii: "="))
                out.append(index + 2 < bytes.count ? alphabet[Int(c3 & 63)] : UInt8(ascii: "="))
                index += 3
            }
            return out
        }

        /// `base64_decode(dst, capacity, &olen, src, slen)`.
        static func decode(_ source: ArraySlice<UInt8>, capacity: Int) -> Decoded {
            let src = Array(source)
            var count = 0
            var padding = 0
            var i = 0
            // First pass: validity and output length.
            while i < src.count {
                var spaces = 0
                while i < src.count, src[i] == UInt8(ascii: " ") {
                    i += 1
                    spaces += 1
                }
                if i == src.count { break }
                if src.count - i >= 2, src[i] == UInt8(ascii: "\r"), src[i + 1] == UInt8(ascii: "\n") {
                    i += 1
                    continue
                }
                if src[i] == UInt8(ascii: "\n") {
                    i += 1
                    continue
                }
                if spaces != 0 { return .invalid }
                if src[i] == UInt8(ascii: "=") {
                    padding += 1
                    if padding > 2 { return .invalid }
                }
                guard let v = value(of: src[i]) else { return .invalid }
                if v < 64, padding != 0 { return .invalid }
                count += 1
                i += 1
            }
            if count == 0 { return .bytes([]) }
            let length = 6 * (count >> 3) + ((6 * (count & 7) + 7) >> 3) - padding
            if capacity < length { return .noRoom }
            // Second pass: groups of four; `\r`, `\n` and spaces skipped; a short tail dropped.
            var out: [UInt8] = []
            out.reserveCapacity(length)
            var kept = 3
            var group = 0
            var accumulator: UInt32 = 0
            for byte in src where byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: " ") {
                // The first pass rejected every other byte, so `value` cannot be nil here.
                let v = value(of: byte) ?? 0
                if v == 64 { kept -= 1 }
                accumulator = (accumulator << 6) | UInt32(v & 0x3F)
                group += 1
                if group == 4 {
                    group = 0
                    if kept > 0 { out.append(UInt8(truncatingIfNeeded: accumulator >> 16)) }
                    if kept > 1 { out.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
                    if kept > 2 { out.append(UInt8(truncatingIfNeeded: accumulator)) }
                }
            }
            return .bytes(out)
        }
    }
}
