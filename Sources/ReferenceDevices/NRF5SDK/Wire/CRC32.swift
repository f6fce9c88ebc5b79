/// The CRC-32 the bootloader chains over every received byte: IEEE 802.3, reflected polynomial
/// 0xEDB88320, initial value and final XOR 0xFFFFFFFF (SDK `components/libraries/crc32/crc32.c`
/// `crc32_compute`, which takes the previous CRC to continue from; 0 starts afresh).
enum CRC32 {
    private static let table: [UInt32] = (0 ..< 256).map { index in
        var value = UInt32(index)
        for _ in 0 ..< 8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    /// The CRC of `previous`'s bytes followed by `bytes`.
    static func update(_ previous: UInt32, with bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = ~previous
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 { update(0, with: bytes) }
}
