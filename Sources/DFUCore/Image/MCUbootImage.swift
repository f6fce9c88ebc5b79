/// A parsed MCUboot image: header, body, optional protected TLV area, unprotected TLV area. Parsing checks
/// the layout only (every size and offset against the file and against each other, as bootutil's TLV
/// iterator does); hashes and signatures are `ImageVerifier`'s job.
///
/// Bytes after the unprotected TLV area are allowed: `imgtool sign --pad` appends the slot trailer.
public struct MCUbootImage: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let header: MCUbootHeader
    /// `nil` when `ih_protect_tlv_size` is 0.
    public let protectedArea: TLVArea?
    public let unprotectedArea: TLVArea
    /// The whole file, kept so the hashed region can be digested later.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) throws(ImageError) {
        let reader = ByteReader(bytes)
        let header = try MCUbootHeader(reader: reader)
        let bodyEnd = try checkedSum(header.headerSize, header.imageSize, field: "ih_img_size")
        _ = try reader.range(at: header.headerSize, length: header.imageSize, what: "image body (ih_img_size)")

        var protectedArea: TLVArea?
        if header.protectedTLVSize != 0 {
            let area = try TLVArea(kind: .protected, at: bodyEnd, in: reader)
            guard area.totalSize == header.protectedTLVSize else {
                throw .invalidField(field: "protected TLV area total", value: area.totalSize,
                                    reason: "differs from ih_protect_tlv_size \(header.protectedTLVSize)")
            }
            protectedArea = area
        } else if let magic = try? reader.u16(at: bodyEnd, what: "TLV info"), magic == TLVArea.Kind.protected.magic {
            // bootutil refuses this too: the hash would silently leave the protected TLVs out.
            throw .invalidField(field: "ih_protect_tlv_size", value: 0,
                                reason: "but a protected TLV area (0x6908) follows the body")
        }
        let unprotectedOffset = bodyEnd + header.protectedTLVSize
        self.unprotectedArea = try TLVArea(kind: .unprotected, at: unprotectedOffset, in: reader)
        self.header = header
        self.protectedArea = protectedArea
        self.bytes = bytes
    }

    public var version: ImageVersion { header.version }
    public var protectedTLVs: [TLV] { protectedArea?.entries ?? [] }
    public var unprotectedTLVs: [TLV] { unprotectedArea.entries }

    /// What the image hash and signature cover: padded header, body and the whole protected TLV area.
    public var hashedRegion: Range<Int> { 0 ..< unprotectedArea.offset }

    /// Header, body and both TLV areas: what is uploaded to the device. Any trailer padding is excluded.
    public var imageLength: Int { unprotectedArea.range.upperBound }

    /// The SHA256 TLV's value: the digest the device reports as the slot hash. MCUboot and imgtool only
    /// look for it in the unprotected area; the first one counts.
    public var sha256TLV: [UInt8]? { unprotectedTLVs.first { $0.type == .sha256 }?.value }

    /// The first unprotected TLV of `type`, for KEYHASH, PUBKEY and friends.
    public func unprotectedTLV(_ type: TLVType) -> TLV? { unprotectedTLVs.first { $0.type == type } }

    /// The signature TLVs in the image, in file order (an image may carry several).
    public var signatureTLVs: [TLV] { unprotectedTLVs.filter { $0.type.isSignature } }

    /// A summary: the synthesized description would print every byte of the file.
    public var description: String {
        let tlvs = (protectedTLVs + unprotectedTLVs).map { "\($0.type)" }.joined(separator: ", ")
        return "MCUboot image \(version), header \(header.headerSize) + body \(header.imageSize) bytes, TLVs: \(tlvs)"
    }

    public var debugDescription: String { description }
}
