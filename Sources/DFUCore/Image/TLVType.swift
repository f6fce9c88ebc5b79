import Transport

/// The type of one MCUboot TLV, as `boot/bootutil/include/bootutil/image.h` numbers them (imgtool's
/// `TLV_VALUES` agrees). Types we do not know, vendor types (0xXXA0–0xXXFE) included, keep their number
/// in `.unknown` so nothing in a file is lost or misread.
public enum TLVType: Sendable, Hashable, CustomStringConvertible {
    case keyHash                 // 0x01 hash of the public key that signed the image
    case publicKey               // 0x02 the public key itself (imgtool --public-key-format full)
    case sha256                  // 0x10
    case sha384                  // 0x11
    case sha512                  // 0x12
    case rsa2048PSS              // 0x20
    case ecdsa224                // 0x21 dropped from MCUboot, still reserved
    case ecdsaSignature          // 0x22 ECDSA P-256 or P-384, DER (formerly "ECDSA256")
    case rsa3072PSS              // 0x23
    case ed25519                 // 0x24
    case signaturePure           // 0x25 the signature covers the region itself, no hash TLV
    case encryptedRSA2048        // 0x30
    case encryptedKeyWrap        // 0x31
    case encryptedEC256          // 0x32
    case encryptedX25519         // 0x33
    case encryptedX25519SHA512   // 0x34
    case dependency              // 0x40
    case securityCounter         // 0x50
    case bootRecord              // 0x60
    case decompressedSize        // 0x70
    case decompressedSHA         // 0x71
    case decompressedSignature   // 0x72
    case compressedDecryptedSize // 0x73
    case vendorUUID              // 0x74
    case classUUID               // 0x75
    /// Any other number. `init(rawValue:)` never builds this for a number listed above.
    case unknown(UInt16)

    private static let known: [(TLVType, UInt16)] = [
        (.keyHash, 0x01), (.publicKey, 0x02), (.sha256, 0x10), (.sha384, 0x11), (.sha512, 0x12),
        (.rsa2048PSS, 0x20), (.ecdsa224, 0x21), (.ecdsaSignature, 0x22), (.rsa3072PSS, 0x23),
        (.ed25519, 0x24), (.signaturePure, 0x25), (.encryptedRSA2048, 0x30), (.encryptedKeyWrap, 0x31),
        (.encryptedEC256, 0x32), (.encryptedX25519, 0x33), (.encryptedX25519SHA512, 0x34),
        (.dependency, 0x40), (.securityCounter, 0x50), (.bootRecord, 0x60), (.decompressedSize, 0x70),
        (.decompressedSHA, 0x71), (.decompressedSignature, 0x72), (.compressedDecryptedSize, 0x73),
        (.vendorUUID, 0x74), (.classUUID, 0x75),
    ]

    public init(rawValue: UInt16) {
        self = Self.known.first { $0.1 == rawValue }?.0 ?? .unknown(rawValue)
    }

    public var rawValue: UInt16 {
        if case .unknown(let value) = self { return value }
        return Self.known.first { $0.0 == self }?.1 ?? 0
    }

    /// The hash TLVs imgtool can emit; dfu checks only SHA256 (Zephyr's img_mgmt reads only that one).
    public var isHash: Bool { self == .sha256 || self == .sha384 || self == .sha512 }

    /// Signature TLVs; they sit in the unprotected area and sign the image digest.
    public var isSignature: Bool {
        switch self {
        case .rsa2048PSS, .ecdsa224, .ecdsaSignature, .rsa3072PSS, .ed25519: return true
        default: return false
        }
    }

    public var description: String {
        let name: String
        switch self {
        case .keyHash: name = "KEYHASH"
        case .publicKey: name = "PUBKEY"
        case .sha256: name = "SHA256"
        case .sha384: name = "SHA384"
        case .sha512: name = "SHA512"
        case .rsa2048PSS: name = "RSA2048_PSS"
        case .ecdsa224: name = "ECDSA224"
        case .ecdsaSignature: name = "ECDSA_SIG"
        case .rsa3072PSS: name = "RSA3072_PSS"
        case .ed25519: name = "ED25519"
        case .signaturePure: name = "SIG_PURE"
        case .encryptedRSA2048: name = "ENC_RSA2048"
        case .encryptedKeyWrap: name = "ENC_KW"
        case .encryptedEC256: name = "ENC_EC256"
        case .encryptedX25519: name = "ENC_X25519"
        case .encryptedX25519SHA512: name = "ENC_X25519_SHA512"
        case .dependency: name = "DEPENDENCY"
        case .securityCounter: name = "SEC_CNT"
        case .bootRecord: name = "BOOT_RECORD"
        case .decompressedSize: name = "DECOMP_SIZE"
        case .decompressedSHA: name = "DECOMP_SHA"
        case .decompressedSignature: name = "DECOMP_SIGNATURE"
        case .compressedDecryptedSize: name = "COMP_DEC_SIZE"
        case .vendorUUID: name = "UUID_VID"
        case .classUUID: name = "UUID_CID"
        case .unknown: name = "TLV"
        }
        return "\(name) (0x\(hexDigits(rawValue, width: 4)))"
    }
}
