/// Why an encrypted image could not be decrypted with the device's key: MCUboot then refuses it at
/// boot (`boot_enc_load` fails, the image does not validate).
public enum ImageDecryptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image carries no key TLV of the kind the device's key unwraps.
    case noKeyTLV(expected: String)
    /// The key TLV has the wrong length for its kind and the header's AES key size.
    case malformedKeyTLV(type: String, length: Int, expected: Int)
    /// The TLV does not unwrap with this key: ECIES tag mismatch, a point not on the curve, or
    /// RSA-OAEP padding that does not check. The image was encrypted for another key.
    case wrongKey(type: String)
    /// libcrypto failed at something that should not fail.
    case crypto(String)

    public var description: String {
        switch self {
        case .noKeyTLV(let expected):
            return "the encrypted image has no \(expected) TLV, so the device's key cannot unwrap its AES key"
        case .malformedKeyTLV(let type, let length, let expected):
            return "its \(type) TLV is \(length) bytes, not \(expected)"
        case .wrongKey(let type):
            return "its \(type) TLV does not unwrap with the device's decryption key: the image was encrypted for another key"
        case .crypto(let detail):
            return "decryption failed in libcrypto (\(detail))"
        }
    }
}
