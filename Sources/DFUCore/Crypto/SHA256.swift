/// SHA-256 through libcrypto: the image hash, the KEYHASH of a public key.
public enum SHA256 {
    public static let byteCount = 32

    /// The digest of `bytes`; slice a file with a range the parser has already checked.
    public static func hash(_ bytes: ArraySlice<UInt8>) throws(ImageError) -> [UInt8] {
        do { return try LibCrypto.sha256(bytes) } catch { throw error.imageError }
    }

    public static func hash(_ bytes: [UInt8]) throws(ImageError) -> [UInt8] {
        try hash(bytes[...])
    }
}
