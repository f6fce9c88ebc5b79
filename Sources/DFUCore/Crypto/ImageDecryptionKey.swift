/// The private key a device's MCUboot holds to decrypt images (the key `imgtool sign -E` encrypted
/// for), loaded from PEM. Used by the virtual device only: a real device keeps it inside. Its bytes
/// are never printed; `description` names only its kind.
public struct ImageDecryptionKey: Sendable, CustomStringConvertible {
    /// How the image's AES key is wrapped for this key (mcuboot `docs/encrypted_images.md`).
    public enum Kind: String, Sendable, Equatable {
        case eciesP256 = "ECIES-P256"
        case eciesX25519 = "ECIES-X25519"
        case rsaOAEP = "RSA-OAEP"

        /// The TLVs that carry an AES key for this kind (bootutil `image.h`).
        var tlvTypes: [TLVType] {
            switch self {
            case .eciesP256: return [.encryptedEC256]
            case .eciesX25519: return [.encryptedX25519, .encryptedX25519SHA512]
            case .rsaOAEP: return [.encryptedRSA2048]
            }
        }
    }

    public let kind: Kind
    /// The PEM text, decoded again for each use so no OpenSSL object crosses threads.
    private let pem: [UInt8]

    public static func load(path: String) throws(ImageError) -> ImageDecryptionKey {
        try ImageDecryptionKey(pem: KeyFile.read(path: path), source: path)
    }

    public init(pem: [UInt8], source: String) throws(ImageError) {
        let key = try Self.decode(pem, source: source)
        if key.isX25519 {
            kind = .eciesX25519
        } else {
            switch key.type {
            case .ec(let curve) where curve == "prime256v1": kind = .eciesP256
            case .rsa(let bits) where bits == 2048: kind = .rsaOAEP
            case .ec(let curve):
                throw .keyUnusable(path: source, reason: "it is an EC key on \(curve); MCUboot decrypts with P-256, X25519 or RSA-2048 keys")
            default:
                throw .keyUnusable(path: source, reason: "it is not a P-256, X25519 or RSA-2048 private key, the kinds MCUboot decrypts images with")
            }
        }
        self.pem = pem
    }

    public var description: String { "\(kind.rawValue) image decryption key" }

    func withKey<R>(_ body: (EVPKey) throws(ImageDecryptionError) -> R) throws(ImageDecryptionError) -> R {
        let key: EVPKey
        do { key = try Self.decode(pem, source: "the decryption key") } catch { throw .crypto(error.description) }
        return try body(key)
    }

    private static func decode(_ pem: [UInt8], source: String) throws(ImageError) -> EVPKey {
        do {
            return try LibCrypto.decodePrivateKeyPEM(pem)
        } catch {
            switch error {
            case .noPEMBlock: throw .keyUnusable(path: source, reason: "it holds no PEM private key (-----BEGIN PRIVATE KEY-----)")
            case .undecodable(_, let detail): throw .keyUnusable(path: source, reason: "its private key does not decode or needs a passphrase (\(detail))")
            case .privateKey, .unexpectedLabel: throw .keyUnusable(path: source, reason: "it holds no usable private key")
            case .library(let failure): throw failure.imageError
            }
        }
    }
}
