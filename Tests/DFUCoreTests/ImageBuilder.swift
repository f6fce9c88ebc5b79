import DFUCore

/// Builds small MCUboot images byte by byte, so parser tests can state exactly which field lies.
/// Defaults give a valid unsigned image: 32-byte header, body, unprotected area with a correct SHA256 TLV.
struct ImageBuilder {
    var magic: UInt32 = 0x96F3_B83D
    var headerSize = 32
    /// Bytes between the 32-byte header and `headerSize`; nil fills with 0xFF, imgtool's erased value.
    var headerPadding: [UInt8]?
    var body: [UInt8] = Array(0 ..< 64)
    var version = ImageVersion(major: 1, minor: 2, revision: 3, build: 45)
    var flags: UInt32 = 0
    var protectedTLVs: [(type: UInt16, value: [UInt8])] = []
    /// Unprotected TLVs after the SHA256 TLV the builder computes.
    var extraTLVs: [(type: UInt16, value: [UInt8])] = []
    var includeSHA256 = true
    /// Overrides for lying fields; nil means "the true value".
    var imageSizeField: UInt32?
    var protectedSizeField: UInt16?
    var protectedTotalField: UInt16?
    var unprotectedTotalField: UInt16?
    var trailer: [UInt8] = []

    func header() -> [UInt8] {
        var h: [UInt8] = []
        h += le32(magic) + le32(0)
        h += le16(UInt16(headerSize)) + le16(protectedSizeField ?? UInt16(protectedArea().count))
        h += le32(imageSizeField ?? UInt32(body.count)) + le32(flags)
        h += [version.major, version.minor] + le16(version.revision) + le32(version.build) + le32(0)
        let fill = headerPadding ?? [UInt8](repeating: 0xFF, count: max(0, headerSize - h.count))
        return h + fill.prefix(max(0, headerSize - h.count))
    }

    func protectedArea() -> [UInt8] {
        guard !protectedTLVs.isEmpty else { return [] }
        return area(magic: 0x6908, tlvs: protectedTLVs, totalOverride: protectedTotalField)
    }

    /// The image, SHA256 TLV computed over header, body and protected area as imgtool does.
    func build() throws(ImageError) -> [UInt8] {
        let hashed = header() + body + protectedArea()
        var tlvs: [(type: UInt16, value: [UInt8])] = []
        if includeSHA256 { tlvs.append((0x10, try SHA256.hash(hashed))) }
        tlvs += extraTLVs
        return hashed + area(magic: 0x6907, tlvs: tlvs, totalOverride: unprotectedTotalField) + trailer
    }

    private func area(magic: UInt16, tlvs: [(type: UInt16, value: [UInt8])], totalOverride: UInt16?) -> [UInt8] {
        var entries: [UInt8] = []
        for tlv in tlvs { entries += le16(tlv.type) + le16(UInt16(tlv.value.count)) + tlv.value }
        return le16(magic) + le16(totalOverride ?? UInt16(4 + entries.count)) + entries
    }
}

func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
func le32(_ v: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

extension Array where Element == UInt8 {
    /// Overwrites bytes at `offset` (test files only: offsets are the test's own constants).
    func patched(at offset: Int, with bytes: [UInt8]) -> [UInt8] {
        var copy = self
        copy.replaceSubrange(offset ..< offset + bytes.count, with: bytes)
        return copy
    }
}
