import ArgumentParsing
import DFUCore
import Transport

/// The HASH of `dfu image test` and `confirm`: a slot's SHA256 TLV as `dfu image list` (and
/// `dfu info`, `imgtool verify`) print it, 64 hex digits, either case. Anything else is refused
/// before connecting, as a usage error.
struct ImageHash: ExpressibleByArgument, Equatable {
    let bytes: [UInt8]

    init?(argument: String) {
        let digits = Array(argument.utf8)
        guard digits.count == 2 * SHA256.byteCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA256.byteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    static var expectedValue: String {
        "64 hex digits: a slot's SHA256 hash, as 'dfu image list' shows it"
    }

    var helpDescription: String { hexString(bytes) }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
