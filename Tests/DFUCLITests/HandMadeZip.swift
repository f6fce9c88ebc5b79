/// Zip archives written byte by byte (PKWARE APPNOTE 4.3.7 local headers, central directory, end
/// record), so a test can make one that lies about its sizes, which no zip tool writes.
enum HandMadeZip {
    struct Entry {
        var name: String
        /// 0 stored, 8 deflated.
        var method: UInt16
        var data: [UInt8]
        var crc: UInt32
        /// The uncompressed size both headers claim.
        var declaredSize: UInt32

        /// Stored as it is; by default declaring its true size.
        static func stored(_ name: String, _ data: [UInt8], declaredSize: UInt32? = nil) -> Entry {
            Entry(name: name, method: 0, data: data, crc: crc32(data), declaredSize: declaredSize ?? UInt32(data.count))
        }

        /// Already deflated `stream`, declaring `declaredSize`. The CRC is left 0: a reader that
        /// honours the sizes stops long before it could compare it.
        static func deflated(_ name: String, _ stream: [UInt8], declaredSize: UInt32) -> Entry {
            Entry(name: name, method: 8, data: stream, crc: 0, declaredSize: declaredSize)
        }
    }

    static func archive(_ entries: [Entry]) -> [UInt8] {
        var local: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let offset = UInt32(local.count)
            local += le(0x0403_4B50 as UInt32) + le(20 as UInt16) + le(0 as UInt16) + le(entry.method) + le(0 as UInt16)
                + le(0 as UInt16) + le(entry.crc) + le(UInt32(entry.data.count)) + le(entry.declaredSize)
                + le(UInt16(name.count)) + le(0 as UInt16) + name + entry.data
            central += le(0x0201_4B50 as UInt32) + le(20 as UInt16) + le(20 as UInt16) + le(0 as UInt16) + le(entry.method)
                + le(0 as UInt16) + le(0 as UInt16) + le(entry.crc) + le(UInt32(entry.data.count)) + le(entry.declaredSize)
                + le(UInt16(name.count)) + le(0 as UInt16) + le(0 as UInt16) + le(0 as UInt16) + le(0 as UInt16)
                + le(0 as UInt32) + le(offset) + name
        }
        let count = UInt16(entries.count)
        let end = le(0x0605_4B50 as UInt32) + le(0 as UInt16) + le(0 as UInt16) + le(count) + le(count)
            + le(UInt32(central.count)) + le(UInt32(local.count)) + le(0 as UInt16)
        return local + central + end
    }

    /// A raw deflate stream (RFC 1951) of `count` zero bytes in one fixed-Huffman block: a literal
    /// 0, then copies of 258 bytes from distance 1 at 13 bits each (about 1:160 of the output).
    static func deflatedZeros(_ count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)            // BFINAL
        bits.write(1, count: 2)            // BTYPE 01, fixed Huffman codes
        var left = count
        if left > 0 {
            bits.writeCode(0x30, count: 8) // literal 0
            left -= 1
        }
        while left >= 258 {
            bits.writeCode(0xC5, count: 8) // length code 285: 258 bytes, no extra bits
            bits.writeCode(0, count: 5)    // distance code 0: distance 1
            left -= 258
        }
        for _ in 0 ..< left { bits.writeCode(0x30, count: 8) }
        bits.writeCode(0, count: 7)        // end of block (256)
        return bits.bytes
    }

    /// Deflate's bit order: fields from the least significant bit, Huffman codes from the most.
    struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0 ..< count { append(bit: (value >> index) & 1) }
        }

        mutating func writeCode(_ code: UInt32, count: Int) {
            for index in (0 ..< count).reversed() { append(bit: (code >> index) & 1) }
        }

        private mutating func append(bit: UInt32) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(bit) << used
            used += 1
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func le(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }

    private static func le(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
}
