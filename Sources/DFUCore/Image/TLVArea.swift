/// A TLV area: a 4-byte info `{u16 magic, u16 total}` followed by TLVs, `total` counting the info too.
/// The protected area (0x6908) is covered by the image hash; the unprotected one (0x6907) is not.
public struct TLVArea: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case protected, unprotected

        public var magic: UInt16 { self == .protected ? 0x6908 : 0x6907 }
        var name: String { self == .protected ? "protected TLV area" : "unprotected TLV area" }
    }

    public static let infoSize = 4
    public static let entryHeaderSize = 4

    public let kind: Kind
    /// File offset of the info header.
    public let offset: Int
    /// The info's `total`: the area's length in bytes, info included.
    public let totalSize: Int
    public let entries: [TLV]

    public var range: Range<Int> { offset ..< offset + totalSize }

    /// Reads the area at `offset` and every TLV in it. Each TLV must lie wholly inside the area and the
    /// last one must end exactly at its end: MCUboot walks the area by these lengths, so a length that
    /// runs past the area or leaves a gap means the file lies about its layout.
    init(kind: Kind, at offset: Int, in reader: ByteReader) throws(ImageError) {
        let magic = try reader.u16(at: offset, what: "\(kind.name) info")
        guard magic == kind.magic else {
            throw .badTLVInfoMagic(expected: kind.magic, found: magic, offset: offset)
        }
        let total = Int(try reader.u16(at: offset + 2, what: "\(kind.name) info"))
        guard total >= Self.infoSize else {
            throw .invalidField(field: "\(kind.name) total", value: total,
                                reason: "is smaller than its own 4-byte info")
        }
        let area = try reader.range(at: offset, length: total, what: kind.name)

        var entries: [TLV] = []
        var position = area.lowerBound + Self.infoSize
        while position < area.upperBound {
            guard area.upperBound - position >= Self.entryHeaderSize else {
                throw .invalidField(field: "\(kind.name) total", value: total,
                                    reason: "leaves \(area.upperBound - position) stray bytes after the last TLV at offset \(position)")
            }
            let type = TLVType(rawValue: try reader.u16(at: position, what: "TLV header"))
            let length = Int(try reader.u16(at: position + 2, what: "TLV header"))
            let valueStart = position + Self.entryHeaderSize
            guard length <= area.upperBound - valueStart else {
                throw .invalidField(field: "length of \(type) at offset \(position)", value: length,
                                    reason: "runs past the end of the \(kind.name) (offset \(area.upperBound))")
            }
            let value = try reader.slice(at: valueStart, length: length, what: "\(type) value")
            entries.append(TLV(type: type, valueOffset: valueStart, value: Array(value)))
            position = valueStart + length
        }
        self.kind = kind
        self.offset = offset
        self.totalSize = total
        self.entries = entries
    }
}
