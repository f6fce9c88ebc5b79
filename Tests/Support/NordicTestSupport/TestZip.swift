/// Builds small stored (uncompressed) zip archives byte by byte, so tests can make what no zip tool
/// writes: names with NUL or "..", lying sizes, cut-off directories.
public struct TestZip: Sendable {
    public struct Entry: Sendable {
        public var name: [UInt8]
        public var data: [UInt8]
        /// The size written in the headers, when a test wants it to lie.
        public var declaredSize: UInt32?

        public init(_ name: String, _ data: [UInt8], declaredSize: UInt32? = nil) {
            self.name = Array(name.utf8)
            self.data = data
            self.declaredSize = declaredSize
        }

        public init(rawName: [UInt8], _ data: [UInt8]) {
            self.name = rawName
            self.data = data
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// `[(name, text)]` shorthand.
    public init(files: [(String, String)]) { self.entries = files.map { Entry($0.0, Array($0.1.utf8)) } }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = UInt32(out.count)
            let crc = Self.crc32(entry.data)
            let size = entry.declaredSize ?? UInt32(entry.data.count)
            // Local file header: version 20, no flags, method 0 (stored), time/date zero.
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            out += le32(crc) + le32(size) + le32(size) + le16(UInt16(entry.name.count)) + le16(0)
            out += entry.name + entry.data
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            central += le32(crc) + le32(size) + le32(size) + le16(UInt16(entry.name.count))
            central += le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + entry.name
        }
        let directoryOffset = UInt32(out.count)
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(directoryOffset) + le16(0)
        return out
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}
