/// What a public key file holds, told apart before it is decoded, so a file that is no key dfu
/// reads gets a message naming what it is: a C array of how many bytes (`imgtool getpub` prints a
/// DER key that way by default), binary data (a DER file), or text for the PEM decoder.
enum KeyFileContents {
    /// Text with a PEM block, or text that is nothing else dfu knows (the PEM decoder says why).
    case text
    /// A C array of hex bytes, `{ 0x30, 0x59, … }`: nrfutil's 64-byte P-256 key, or anything else.
    case cArray([UInt8])
    /// Text with a `{` that is no array of `0x..` bytes.
    case malformedCArray
    /// Not text: a DER file, an image, random bytes.
    case binary

    init(_ bytes: [UInt8]) {
        if Self.isBinary(bytes) {
            self = .binary
        } else if NordicKeyCode.looksLikeCode(bytes) {
            self = NordicKeyCode.bytes(bytes).map(KeyFileContents.cArray) ?? .malformedCArray
        } else {
            self = .text
        }
    }

    /// What the key formats dfu reads are, for the end of a refusal.
    static let formatsRead = "dfu reads a PEM public key (imgtool getpub -k KEY.pem --encoding pem) or the 64-byte "
        + "P-256 array nrfutil keys display --key pk --format code prints"

    /// `, which is a DER ECDSA P-256 public key` when `der` decodes as a public key, else `""`.
    static func derWords(_ der: [UInt8]) -> String {
        if let key = EVPKey.decode(subjectPublicKeyInfo: der) { return ", which is a DER \(kind(key)) public key" }
        _ = LibCrypto.drainErrorQueue()
        if let key = EVPKey.decode(rsaPublicKey: der) { return ", which is a DER \(kind(key)) public key (PKCS#1)" }
        _ = LibCrypto.drainErrorQueue()
        return ""
    }

    private static func kind(_ key: EVPKey) -> String {
        switch key.type {
        case .ec(let curve) where ["prime256v1", "secp256r1", "P-256"].contains(curve): return "ECDSA P-256"
        case .ec(let curve) where ["secp384r1", "P-384"].contains(curve): return "ECDSA P-384"
        case .ec(let curve): return "EC (\(curve))"
        case .ed25519: return "Ed25519"
        case .rsa(let bits): return "RSA-\(bits)"
        case .other: return "non-MCUboot"
        }
    }

    /// A NUL or another control character than tab and line ends, or bytes that are not UTF-8.
    private static func isBinary(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(where: { $0 < 0x09 || (0x0E ..< 0x20).contains($0) || $0 == 0x7F }) { return true }
        return String(validating: bytes, as: UTF8.self) == nil
    }
}
