/// A 128-bit Bluetooth UUID.
///
/// SIG-assigned 16- and 32-bit short forms (`2A19`, `0x2A19`, `0000180F`) are expanded with the
/// Bluetooth Base UUID `00000000-0000-1000-8000-00805F9B34FB` (Core spec Vol 3 Part B §2.5.1).
/// Values compare as numbers, never as strings: BlueZ reports lowercase, Zephyr's docs uppercase.
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    /// The first and last 64 bits, big-endian; two words so the value hashes and compares cheaply.
    public let high: UInt64
    public let low: UInt64

    /// The Base UUID `00000000-0000-1000-8000-00805F9B34FB`; a short form replaces its first 32 bits.
    static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Builds a UUID from 16 big-endian bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 16 bytes in big-endian (text) order.
    public var bytes: [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: high >> ($0 * 8)) }
            + (0..<8).reversed().map { UInt8(truncatingIfNeeded: low >> ($0 * 8)) }
    }

    /// Expands a 16-bit SIG short form (e.g. `0x2A19`, Battery Level).
    public init(short value: UInt16) {
        self.init(short32: UInt32(value))
    }

    /// Expands a 32-bit SIG short form.
    public init(short32 value: UInt32) {
        high = UInt64(value) << 32 | Self.baseHigh
        low = Self.baseLow
    }

    /// Parses `2A19`, `0x2A19`, `0000180F` (short forms) or the canonical 36-character form
    /// `8D53DC1D-1DB7-4CD3-868B-8A527460AA84` in either case. Anything else gives nil.
    public init?(string: String) {
        var text = Substring(string)
        let prefixed = text.hasPrefix("0x") || text.hasPrefix("0X")
        if prefixed { text = text.dropFirst(2) }
        let utf8 = Array(text.utf8)
        switch utf8.count {
        case 4, 8:
            guard let digits = Self.hexBytes(utf8) else { return nil }
            let value = digits.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
            self.init(short32: value)
        case 36 where !prefixed:
            let dashes = [8, 13, 18, 23]
            guard dashes.allSatisfy({ utf8[$0] == UInt8(ascii: "-") }) else { return nil }
            let hex = utf8.enumerated().filter { !dashes.contains($0.offset) }.map(\.element)
            guard let parsed = Self.hexBytes(hex) else { return nil }
            self.init(bytes: parsed)
        default:
            return nil
        }
    }

    /// The 16-bit short form when this UUID is one (base suffix and top 16 bits zero).
    public var short16: UInt16? {
        guard low == Self.baseLow, high & 0xFFFF_FFFF == Self.baseHigh, high >> 48 == 0 else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// Canonical lowercase 8-4-4-4-12 form, as BlueZ prints it.
    public var description: String {
        let bytes = bytes
        return [0 ..< 4, 4 ..< 6, 6 ..< 8, 8 ..< 10, 10 ..< 16].map { hexString(bytes[$0]) }.joined(separator: "-")
    }

    /// Pairs of ASCII hex digits to bytes; nil on an odd count or a non-hex character.
    private static func hexBytes(_ ascii: [UInt8]) -> [UInt8]? {
        guard ascii.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(ascii.count / 2)
        var index = 0
        while index < ascii.count {
            guard let high = nibble(ascii[index]), let low = nibble(ascii[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    private static func nibble(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return ascii - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return ascii - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return ascii - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
