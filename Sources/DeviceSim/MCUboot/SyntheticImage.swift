import DFUCore

/// Builds the image a virtual device runs before any update: a well-formed MCUboot image of the
/// wanted version with a correct SHA256 TLV and no signature (the running image is trusted, see
/// `MCUbootBootloader`). The body is deterministic in the version, so the slot hash a device reports
/// is the same on every run and differs between versions.
public enum SyntheticImage {
    /// The header size imgtool pads to for the samples (`--header-size 0x200 --pad-header`).
    public static let headerSize = 0x200
    /// Like the 48 KiB sample application, so swap times look like a real update's.
    public static let defaultBodySize = 48 * 1024
    /// The body of a further image's (an nRF5340 network core's): another size, so another hash.
    public static let networkCoreBodySize = 32 * 1024

    public static func make(version: ImageVersion, bodySize: Int = defaultBodySize) throws(ImageError) -> [UInt8] {
        let body = deterministicBody(count: max(0, bodySize), seed: version)
        var image: [UInt8] = []
        image.reserveCapacity(headerSize + body.count + 40)
        image += le32(MCUbootHeader.magic)
        image += le32(0)                              // ih_load_addr
        image += le16(UInt16(headerSize))             // ih_hdr_size
        image += le16(0)                              // ih_protect_tlv_size
        image += le32(UInt32(truncatingIfNeeded: body.count))
        image += le32(0)                              // ih_flags
        image += [version.major, version.minor] + le16(version.revision) + le32(version.build)
        image += le32(0)                              // padding
        image += [UInt8](repeating: 0, count: headerSize - image.count)
        image += body
        let digest = try SHA256.hash(image)
        let tlvs = le16(0x10) + le16(UInt16(digest.count)) + digest
        image += le16(0x6907) + le16(UInt16(4 + tlvs.count)) + tlvs
        return image
    }

    /// xorshift64 bytes seeded by the version: cheap, stable across platforms, not all 0xFF.
    private static func deterministicBody(count: Int, seed version: ImageVersion) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            ^ UInt64(version.major) << 56 ^ UInt64(version.minor) << 48
            ^ UInt64(version.revision) << 32 ^ UInt64(version.build)
        var out = [UInt8](repeating: 0, count: count)
        for i in 0 ..< count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            out[i] = UInt8(truncatingIfNeeded: state)
        }
        return out
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
}
