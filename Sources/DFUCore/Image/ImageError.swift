import Transport

/// Why an image (or the key given to check it) was refused. Each description names the problem and what
/// to do about it; the tools exit 3 for all of them (`DFUError.image`).
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file ends before a structure it must contain (`what`), at byte `offset`.
    case truncated(what: String, offset: Int, needed: Int, available: Int)
    /// The header does not start with the MCUboot magic 0x96F3B83D.
    case badMagic(found: UInt32)
    /// A size or offset field points outside the file or contradicts another field.
    case invalidField(field: String, value: Int, reason: String)
    /// A TLV area does not start with the expected info magic (0x6908 protected, 0x6907 unprotected).
    case badTLVInfoMagic(expected: UInt16, found: UInt16, offset: Int)
    /// The image has no SHA256 TLV, so its integrity cannot be checked.
    case missingHash
    /// The SHA-256 computed over header, body and protected TLVs differs from the SHA256 TLV.
    case hashMismatch(expected: [UInt8], computed: [UInt8])
    /// The image carries no signature TLV of the key's type.
    case signatureMissing(keyType: String)
    /// The signature TLV does not verify against the given key.
    case signatureInvalid(algorithm: String)
    /// The KEYHASH TLV is not the hash of the given key: the image was signed for another key.
    case keyHashMismatch
    /// The key file could not be read (missing, a directory, no permission). `reason` completes
    /// "cannot read key file PATH: …".
    case keyUnreadable(path: String, reason: String)
    /// The key file was read but holds no key dfu can use. `reason` completes "cannot use key
    /// PATH: …" and carries its own advice where there is one to follow.
    case keyUnusable(path: String, reason: String)
    /// A well-formed MCUboot image that dfu cannot check (legacy v1 header, big-endian, only a SHA-384 or
    /// SHA-512 hash, a pure signature, ECDSA P-384). `reason` completes "it …" and carries its own
    /// advice where the user can follow one.
    case unsupportedImage(reason: String)
    /// The header says the image is compressed, but its compression TLVs are missing or malformed
    /// (sdk-mcuboot `bootutil_img_validate` refuses it). `reason` completes "it …".
    case invalidCompression(reason: String)
    /// The compressed body does not decompress into the image DECOMP_SIZE describes.
    case decompressionFailed(DecompressionError)
    /// The decompressed image's SHA-256 differs from DECOMP_SHA.
    case decompressedHashMismatch(expected: [UInt8], computed: [UInt8])
    /// A compressed image without DECOMP_SIGNATURE, which MCUboot requires.
    case decompressedSignatureMissing
    /// DECOMP_SIGNATURE does not verify with the given key.
    case decompressedSignatureInvalid(algorithm: String)
    /// libcrypto failed at something that should not fail (out of memory, broken installation). `detail`
    /// is OpenSSL's error queue; it never contains key material or image bytes.
    case cryptoFailure(operation: String, detail: String)

    public var description: String {
        switch self {
        case .truncated(let what, let offset, let needed, let available):
            return "image is truncated: \(what) needs \(needed) bytes at offset \(offset) but the file has \(available). Re-download or rebuild the image."
        case .badMagic(let found):
            return "not an MCUboot image: bad header magic 0x\(hexDigits(found, width: 8)) (expected 0x96F3B83D). Sign the binary with imgtool first."
        case .invalidField(let field, let value, let reason):
            return "image header is inconsistent: \(field) = \(value) \(reason). The file is corrupt or not an MCUboot image."
        case .badTLVInfoMagic(let expected, let found, let offset):
            return "image TLV area at offset \(offset) has magic 0x\(hexDigits(found, width: 4)) (expected 0x\(hexDigits(expected, width: 4))). The file is corrupt or was truncated."
        case .missingHash:
            return "image has no SHA256 TLV, so its integrity cannot be checked. Re-sign it with imgtool."
        case .hashMismatch:
            return "image hash mismatch: the SHA-256 of header, body and protected TLVs differs from the SHA256 TLV. The image was modified after signing; do not flash it."
        case .signatureMissing(let keyType):
            return "image has no \(keyType) signature for the given key. Check that you passed the key the image was signed with."
        case .signatureInvalid(let algorithm):
            return "\(algorithm) signature does not verify with the given key. The image was signed with another key or modified after signing; do not flash it."
        case .keyHashMismatch:
            return "the image's KEYHASH TLV does not match the given key: it was signed for another key. Pass the matching public key."
        case .keyUnreadable(let path, let reason):
            return "cannot read key file \(path): \(reason). Check the path and its permissions."
        case .keyUnusable(let path, let reason):
            return "cannot use key \(path): \(reason)."
        case .unsupportedImage(let reason):
            return "dfu cannot check this MCUboot image: \(reason)."
        case .invalidCompression(let reason):
            return "compressed MCUboot image is malformed: \(reason). MCUboot refuses it; compress and sign it again with imgtool sign --compression."
        case .decompressionFailed(let error):
            return "compressed image does not decompress: \(error). MCUboot would refuse it at boot; do not flash it."
        case .decompressedHashMismatch:
            return "decompressed image hash mismatch: the image the body decompresses to differs from DECOMP_SHA. MCUboot would refuse it at boot; do not flash it."
        case .decompressedSignatureMissing:
            return "compressed image has no DECOMP_SIGNATURE TLV, and MCUboot refuses compressed images without one. Sign it with imgtool sign --key … --compression."
        case .decompressedSignatureInvalid(let algorithm):
            return "\(algorithm) signature of the decompressed image (DECOMP_SIGNATURE) does not verify with the given key. Check that you passed the key the image was signed with."
        case .cryptoFailure(let operation, let detail):
            return "OpenSSL failed while \(operation): \(detail). Check the libcrypto installation (libssl3); this is not a problem with the image."
        }
    }
}
