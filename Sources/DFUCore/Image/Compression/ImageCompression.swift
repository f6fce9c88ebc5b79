/// What a compressed image says about the image MCUboot will install from it: the header flags
/// (`IMAGE_F_COMPRESSED_*`, bootutil `image.h`) and three protected TLVs imgtool adds (mcuboot
/// `docs/compression_format.md`, "TLVs"):
/// - DECOMP_SIZE (0x70): the installed body's size, a 32-bit integer;
/// - DECOMP_SHA (0x71): the installed image's SHA-256, the SHA256 TLV it will carry in slot 0;
/// - DECOMP_SIGNATURE (0x72): the signature of that hash, its signature TLV in slot 0.
///
/// sdk-mcuboot's `bootutil_img_validate` (`boot/bootutil/src/image_validate.c`) refuses a
/// compressed image unless all three are in the protected area with those sizes; `init` refuses
/// the same images, except that a missing DECOMP_SIGNATURE is left to the report (it is a check a
/// user can act on: sign the image).
public struct ImageCompression: Sendable, Equatable {
    public enum Method: String, Sendable, Equatable {
        case lzma2 = "LZMA2"
        case lzma2ARMThumb = "LZMA2 with ARM Thumb filter"
    }

    public static let maximumDecompressedSize = 64 * 1_048_576
    public static let flags: MCUbootHeader.Flags = [.compressedLZMA1, .compressedLZMA2, .compressedARMThumb]

    public let method: Method
    public let decompressedSize: Int
    public let decompressedSHA256: [UInt8]
    /// nil when the image has none (imgtool without a key): MCUboot then refuses it.
    public let decompressedSignature: [UInt8]?
    /// The compressed stream's length inside the body. An encrypted body is padded to whole AES
    /// blocks, so there it is COMP_DEC_SIZE (0x73), which MCUboot then requires; otherwise the body.
    public let compressedSize: Int

    /// nil for an image whose header has no compression flag.
    public init?(image: MCUbootImage) throws(ImageError) {
        let flags = image.header.flags.intersection(Self.flags)
        guard !flags.isEmpty else { return nil }
        if flags.contains(.compressedLZMA1) {
            throw .unsupportedImage(reason: "it is compressed with LZMA1, which imgtool does not write and dfu cannot decompress; "
                                     + "compress it with imgtool sign --compression lzma2")
        }
        guard flags.contains(.compressedLZMA2) else {
            throw .invalidCompression(reason: "its header has the ARM Thumb filter flag without the LZMA2 flag")
        }
        method = flags.contains(.compressedARMThumb) ? .lzma2ARMThumb : .lzma2
        func only(_ type: TLVType, size: Int?) throws(ImageError) -> [UInt8]? {
            let found = image.protectedTLVs.filter { $0.type == type }
            guard found.count <= 1 else { throw .invalidCompression(reason: "it has \(found.count) \(type) TLVs") }
            guard let value = found.first?.value else { return nil }
            if let size, value.count != size {
                throw .invalidCompression(reason: "its \(type) TLV is \(value.count) bytes, not \(size)")
            }
            return value
        }
        guard let size = try only(.decompressedSize, size: 4) else {
            throw .invalidCompression(reason: "it has no DECOMP_SIZE TLV in its protected area")
        }
        guard let sha = try only(.decompressedSHA, size: SHA256.byteCount) else {
            throw .invalidCompression(reason: "it has no DECOMP_SHA TLV in its protected area")
        }
        // Little-endian, as the rest of the image (imgtool packs it with the header's byte order).
        decompressedSize = size.reversed().reduce(0) { $0 << 8 | Int($1) }
        // The slot is at most 16 MiB in the sim and a few MiB on devices; a larger claim is a lie.
        guard decompressedSize <= Self.maximumDecompressedSize else {
            throw .invalidCompression(reason: "its DECOMP_SIZE (\(decompressedSize) bytes) is larger than any slot dfu knows (\(Self.maximumDecompressedSize / 1_048_576) MiB)")
        }
        decompressedSHA256 = sha
        decompressedSignature = try only(.decompressedSignature, size: nil)
        if image.header.flags.isEncrypted {
            guard let size = try only(.compressedDecryptedSize, size: 4) else {
                throw .invalidCompression(reason: "it is encrypted but has no COMP_DEC_SIZE TLV in its protected area")
            }
            compressedSize = size.reversed().reduce(0) { $0 << 8 | Int($1) }
            guard compressedSize <= image.header.imageSize else {
                throw .invalidField(field: "COMP_DEC_SIZE", value: compressedSize, reason: "is larger than the body (\(image.header.imageSize) bytes)")
            }
        } else {
            compressedSize = image.header.imageSize
        }
    }

    /// The TLVs that describe the compressed file only; MCUboot leaves them out of the installed image.
    static let fileOnlyTLVs: Set<TLVType> = [.decompressedSize, .decompressedSHA, .decompressedSignature,
                                             .compressedDecryptedSize]
}
