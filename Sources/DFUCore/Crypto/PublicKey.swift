import Foundation
import Transport

/// A public key an MCUboot image (ECDSA P-256, Ed25519, RSA-2048, RSA-3072) or a Nordic DFU package
/// (ECDSA P-256) can be checked against.
/// It keeps only the DER bytes imgtool hashes for KEYHASH and rebuilds the libcrypto key per check, so
/// the value is plain data: `Sendable`, comparable, and free of C lifetimes.
public struct PublicKey: Sendable, Equatable, CustomStringConvertible {
    public let algorithm: SignatureAlgorithm
    /// The key as imgtool's `get_public_bytes` writes it: DER SubjectPublicKeyInfo for EC and Ed25519,
    /// DER PKCS#1 RSAPublicKey for RSA.
    public let derBytes: [UInt8]
    /// SHA-256 of `derBytes`: what imgtool stores in the KEYHASH TLV.
    public let keyHash: [UInt8]

    /// Decodes the first PEM block of `pem`: `PUBLIC KEY` (SubjectPublicKeyInfo) or `RSA PUBLIC KEY`
    /// (PKCS#1). `source` names the key in errors (a path, usually).
    public init(pem: [UInt8], source: String = "the key") throws(ImageError) {
        let key: EVPKey
        do {
            key = try LibCrypto.decodePublicKeyPEM(pem)
        } catch {
            throw Self.unusable(source, error)
        }
        try self.init(key: key, source: source)
    }

    /// An ECDSA P-256 key from its raw coordinates (big-endian, 32 bytes each), as a Nordic bootloader
    /// holds it. libcrypto checks that the point is on the curve.
    public init(p256X x: [UInt8], y: [UInt8], source: String = "the key") throws(ImageError) {
        guard x.count == 32, y.count == 32 else {
            throw .keyUnusable(path: source, reason: "a P-256 key needs 32-byte X and Y")
        }
        // SubjectPublicKeyInfo { id-ecPublicKey, prime256v1 } followed by the uncompressed point 04 || X || Y.
        let prefix: [UInt8] = [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                               0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04]
        guard let key = EVPKey.decode(subjectPublicKeyInfo: prefix + x + y) else {
            _ = LibCrypto.drainErrorQueue()
            throw .keyUnusable(path: source, reason: "its 64 bytes are not a point on the P-256 curve")
        }
        try self.init(key: key, source: source)
    }

    private init(key: EVPKey, source: String) throws(ImageError) {
        let algorithm: SignatureAlgorithm
        switch key.type {
        case .ec(let curve) where ["prime256v1", "secp256r1", "P-256"].contains(curve):
            algorithm = .ecdsaP256
        case .ec(let curve) where ["secp384r1", "P-384"].contains(curve):
            throw .keyUnusable(path: source, reason: "it is an ECDSA P-384 key, which dfu does not support (it checks "
                               + "ECDSA P-256, Ed25519, RSA-2048 and RSA-3072 keys)")
        case .ec(let curve):
            throw .keyUnusable(path: source, reason: "it is an EC key on curve \(curve); dfu checks ECDSA P-256 only")
        case .ed25519:
            algorithm = .ed25519
        case .rsa(bits: 2048):
            algorithm = .rsa2048PSS
        case .rsa(bits: 3072):
            algorithm = .rsa3072PSS
        case .rsa(let bits):
            throw .keyUnusable(path: source, reason: "it is an RSA-\(bits) key; MCUboot signs with RSA-2048 or RSA-3072 only")
        case .other(let id):
            throw .keyUnusable(path: source, reason: "its key type (OpenSSL id \(id)) is not an MCUboot signing key (ECDSA P-256, Ed25519, RSA-2048, RSA-3072)")
        }
        do {
            derBytes = algorithm.isRSA ? try key.rsaPublicKeyDER() : try key.subjectPublicKeyInfoDER()
        } catch {
            throw error.imageError
        }
        self.algorithm = algorithm
        self.keyHash = try SHA256.hash(derBytes)
    }

    /// Reads a public key file: PEM (any line width), or the C array `nrfutil keys display --key pk
    /// --format code` prints. Unreadable: `.keyUnreadable`. Too large or not a supported public key:
    /// `.keyUnusable`, naming what the file holds instead (`KeyFileContents`).
    public static func load(path: String) throws(ImageError) -> PublicKey {
        let text = try KeyFile.read(path: path)
        switch KeyFileContents(text) {
        case .text:
            return try PublicKey(pem: text, source: path)
        case .cArray(let bytes):
            if let (x, y) = NordicKeyCode.coordinates(fromArray: bytes) { return try PublicKey(p256X: x, y: y, source: path) }
            throw .keyUnusable(path: path, reason: "it is a C array of \(bytes.count) bytes\(KeyFileContents.derWords(bytes)), "
                               + "not the 64 bytes of a P-256 key; \(KeyFileContents.formatsRead)")
        case .malformedCArray:
            throw .keyUnusable(path: path, reason: "it has a '{' but no C array of hex bytes (0x30, 0x59, …) after it; "
                               + KeyFileContents.formatsRead)
        case .binary:
            let der = KeyFileContents.derWords(text)
            let fix = der.isEmpty ? KeyFileContents.formatsRead
                : "convert it: openssl pkey -pubin -inform DER -in \(path) -out key.pub.pem"
            throw .keyUnusable(path: path, reason: "it is binary data (\(text.count) bytes)\(der), not text; \(fix)")
        }
    }

    /// Whether `signature` is this key's signature of the 32-byte image `digest`, by MCUboot's rules for
    /// `algorithm`. A malformed signature is `false`; only a libcrypto failure throws.
    public func isValidSignature(_ signature: [UInt8], forDigest digest: [UInt8]) throws(ImageError) -> Bool {
        let decoded = algorithm.isRSA ? EVPKey.decode(rsaPublicKey: derBytes)
                                      : EVPKey.decode(subjectPublicKeyInfo: derBytes)
        guard let key = decoded else {
            throw .cryptoFailure(operation: "re-reading a key it encoded itself", detail: LibCrypto.drainErrorQueue())
        }
        do {
            return try key.verify(signature: Self.withoutECDSAPadding(signature, algorithm: algorithm),
                                  digest: digest, scheme: algorithm.scheme)
        } catch {
            throw error.imageError
        }
    }

    /// imgtool can zero-pad ECDSA signatures to 72 bytes (MCUboot < 1.5 needed it) and strips the padding
    /// by the DER SEQUENCE length before verifying; OpenSSL refuses trailing bytes, so do the same here.
    static func withoutECDSAPadding(_ signature: [UInt8], algorithm: SignatureAlgorithm) -> [UInt8] {
        guard algorithm == .ecdsaP256, signature.count >= 2, signature[0] == 0x30, signature[1] < 0x80 else {
            return signature
        }
        let derLength = Int(signature[1]) + 2
        return derLength < signature.count ? Array(signature.prefix(derLength)) : signature
    }

    public var description: String { "\(algorithm) public key (key hash \(hexString(keyHash)))" }

    private static func unusable(_ source: String, _ error: PEMKeyError) -> ImageError {
        switch error {
        case .noPEMBlock:
            return .keyUnusable(path: source, reason: "it holds no PEM block (-----BEGIN PUBLIC KEY-----); \(KeyFileContents.formatsRead)")
        case .privateKey(let label):
            return .keyUnusable(path: source, reason: "it holds a private key (\(label)); give the public key only "
                                + "(imgtool getpub -k KEY.pem --encoding pem)")
        case .unexpectedLabel(let label):
            return .keyUnusable(path: source, reason: "its PEM block is \"\(label)\", not a public key; \(KeyFileContents.formatsRead)")
        case .undecodable(let label, let detail):
            return .keyUnusable(path: source, reason: "its \(label) block does not decode (\(detail)); the file is damaged "
                                + "or not a key")
        case .library(let error):
            return error.imageError
        }
    }
}

extension SignatureAlgorithm {
    var isRSA: Bool { self == .rsa2048PSS || self == .rsa3072PSS }
}
