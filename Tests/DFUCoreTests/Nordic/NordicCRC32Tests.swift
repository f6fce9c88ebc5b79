import Testing
@testable import DFUCore

/// The zlib CRC-32 (nordic-secure-dfu.md §3.2): check values, chaining, and prefixes.
@Suite struct NordicCRC32Tests {
    @Test func checkValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum([0x00]) == 0xD202_EF8D)
        #expect(CRC32.checksum([UInt8](repeating: 0xFF, count: 4)) == 0xFFFF_FFFF)
    }

    @Test func chainsAcrossAnySplit() {
        var rng = SplitMix64(seed: 32)
        let bytes = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let whole = CRC32.checksum(bytes)
        for _ in 0..<50 {
            let cut = rng.next(below: bytes.count + 1)
            var crc = CRC32()
            crc.update(bytes[..<cut])
            var continued = CRC32(continuing: crc.value)
            continued.update(bytes[cut...])
            #expect(continued.value == whole)
        }
    }

    @Test func prefixCRCAgreesAtEveryKindOfOffset() {
        let bytes = nordicTestBytes(5_000, seed: 33)
        let prefix = NordicPrefixCRC(bytes)
        for offset in [0, 1, 1023, 1024, 1025, 2048, 4096, 4999, 5000] + (0..<40).map({ $0 * 125 }) {
            #expect(prefix.crc(upTo: offset) == CRC32.checksum(bytes[..<offset]), "offset \(offset)")
        }
        #expect(prefix.crc(upTo: 9_999) == CRC32.checksum(bytes)) // clamped, never a trap
    }
}
