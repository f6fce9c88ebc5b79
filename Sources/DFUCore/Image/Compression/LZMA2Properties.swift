/// The two bytes imgtool puts before the raw LZMA2 stream in a compressed image's body (mcuboot
/// `docs/compression_format.md`, "LZMA Header"): the dictionary size as an index, then lc, lp and
/// pb packed as `(pb * 5 + lp) * 9 + lc`.
struct LZMA2Properties: Sendable, Equatable {
    static let encodedSize = 2

    let dictionarySize: UInt32
    let literalContextBits: UInt32
    let literalPositionBits: UInt32
    let positionBits: UInt32

    /// nil when the index is past the table (40 entries) or the packed byte past 224 (pb ≤ 4).
    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count == Self.encodedSize, let index = bytes.first, let packed = bytes.last,
              index < 40, packed < 9 * 5 * 5 else { return nil }
        // Sizes alternate 2·2^n and 3·2^n from 4 KiB (index 0) to 3 GiB (index 39).
        dictionarySize = (2 | UInt32(index & 1)) << (UInt32(index) / 2 + 11)
        literalContextBits = UInt32(packed % 9)
        positionBits = UInt32(packed / 9 / 5)
        literalPositionBits = UInt32(packed / 9 % 5)
    }
}
