/// The image MCUboot writes to the primary slot from a compressed one, byte for byte as sdk-mcuboot's
/// `boot_copy_region_decompress` (`boot/zephyr/decompression.c`) writes it:
/// - the 32-byte header with the compression flags cleared, `ih_img_size` = DECOMP_SIZE and
///   `ih_protect_tlv_size` = the protected area without the compression TLVs (0 if nothing is left);
///   the rest of the padded header is erased flash (0xFF), which its hash also covers;
/// - the decompressed body;
/// - the protected TLVs, in order, without DECOMP_SIZE, DECOMP_SHA, DECOMP_SIGNATURE, COMP_DEC_SIZE;
/// - the unprotected TLVs, in order, the SHA256 TLV now holding DECOMP_SHA and the signature TLV
///   DECOMP_SIGNATURE.
/// So its SHA256 TLV is DECOMP_SHA, and its hash is what `bootutil_img_hash_decompress` computes.
public enum InstalledImage {
    public static func decompressing(_ image: MCUbootImage,
                                     _ compression: ImageCompression) -> Result<[UInt8], DecompressionError> {
        let bodyRange = image.header.headerSize ..< image.header.headerSize + compression.compressedSize
        let propertiesEnd = bodyRange.lowerBound + LZMA2Properties.encodedSize
        guard propertiesEnd <= bodyRange.upperBound else { return .failure(.truncated) }
        guard let properties = LZMA2Properties(image.bytes[bodyRange.lowerBound ..< propertiesEnd]) else {
            return .failure(.badProperties)
        }
        let body: [UInt8]
        switch LibLZMA.decodeRaw(image.bytes[propertiesEnd ..< bodyRange.upperBound], properties: properties,
                                 armThumb: compression.method == .lzma2ARMThumb,
                                 outputLimit: compression.decompressedSize) {
        case .failure(let error): return .failure(error)
        case .success(let bytes): body = bytes
        }
        guard body.count == compression.decompressedSize else {
            return .failure(.sizeMismatch(expected: compression.decompressedSize, produced: body.count))
        }
        let kept = image.protectedTLVs.filter { !ImageCompression.fileOnlyTLVs.contains($0.type) }
        let unprotected = image.unprotectedTLVs.compactMap { tlv -> (TLVType, [UInt8])? in
            if tlv.type == .compressedDecryptedSize { return nil }
            if tlv.type == .sha256 { return (tlv.type, compression.decompressedSHA256) }
            if tlv.type.isSignature, let signature = compression.decompressedSignature { return (tlv.type, signature) }
            return (tlv.type, tlv.value)
        }
        let protectedArea = kept.isEmpty ? [] : area(.protected, kept.map { ($0.type, $0.value) })
        var bytes = header(of: image, imageSize: body.count, protectedSize: protectedArea.count)
        bytes += [UInt8](repeating: 0xFF, count: image.header.headerSize - MCUbootHeader.size)
        bytes += body
        bytes += protectedArea
        bytes += area(.unprotected, unprotected)
        return .success(bytes)
    }

    /// The file's 32-byte header with the installed image's flags and sizes.
    private static func header(of image: MCUbootImage, imageSize: Int, protectedSize: Int) -> [UInt8] {
        var bytes = Array(image.bytes[0 ..< MCUbootHeader.size])
        put(UInt32(truncatingIfNeeded: protectedSize), bytes: 2, at: 10, in: &bytes)
        put(UInt32(truncatingIfNeeded: imageSize), bytes: 4, at: 12, in: &bytes)
        put(image.header.flags.subtracting(ImageCompression.flags).rawValue, bytes: 4, at: 16, in: &bytes)
        return bytes
    }

    /// A TLV area: info `{magic, total}`, then `{type, length}` and value for each TLV, little-endian.
    private static func area(_ kind: TLVArea.Kind, _ tlvs: [(TLVType, [UInt8])]) -> [UInt8] {
        let total = TLVArea.infoSize + tlvs.reduce(0) { $0 + TLVArea.entryHeaderSize + $1.1.count }
        var bytes = [UInt8](repeating: 0, count: TLVArea.infoSize)
        put(UInt32(kind.magic), bytes: 2, at: 0, in: &bytes)
        put(UInt32(truncatingIfNeeded: total), bytes: 2, at: 2, in: &bytes)
        for (type, value) in tlvs {
            var entry = [UInt8](repeating: 0, count: TLVArea.entryHeaderSize)
            put(UInt32(type.rawValue), bytes: 2, at: 0, in: &entry)
            put(UInt32(truncatingIfNeeded: value.count), bytes: 2, at: 2, in: &entry)
            bytes += entry + value
        }
        return bytes
    }

    private static func put(_ value: UInt32, bytes count: Int, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0 ..< count where bytes.indices.contains(offset + index) {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
        }
    }
}
