/// The standard CRC-32 (IEEE 802.3, as zlib's `crc32`: reflected polynomial 0xEDB88320, initial
/// value and final XOR 0xFFFFFFFF), which the Nordic bootloader chains over the whole image
/// (nordic-secure-dfu.md §3.2). A value can be continued with more bytes, so the CRC of a prefix
/// extends to the CRC of a longer prefix without reading the start again.
public struct CRC32: Sendable, Hashable {
    /// The checksum of everything fed so far; 0 for no bytes, as the bootloader reports.
    public private(set) var value: UInt32

    /// Continues from the checksum `value` of some earlier bytes (0: start from nothing).
    public init(continuing value: UInt32 = 0) { self.value = value }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var crc = ~value
        for byte in bytes {
            crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        value = ~crc
    }

    /// The checksum of `bytes` alone.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// One entry per low byte of the running register: the byte-at-a-time form of the polynomial.
    private static let table: [UInt32] = (0..<256).map { index in
        var entry = UInt32(index)
        for _ in 0..<8 { entry = entry & 1 == 1 ? 0xEDB8_8320 ^ (entry >> 1) : entry >> 1 }
        return entry
    }
}
