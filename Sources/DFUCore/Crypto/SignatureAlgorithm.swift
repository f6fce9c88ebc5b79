/// The MCUboot signature schemes dfu checks, named as `dfu verify` reports them. Each one signs the 32-byte
/// SHA-256 image digest (MCUboot's `bootutil_verify_sig(hash, …)`; imgtool keys/*.py).
public enum SignatureAlgorithm: String, Sendable, CaseIterable, CustomStringConvertible {
    case ecdsaP256 = "ECDSA P-256"
    case ed25519 = "Ed25519"
    case rsa2048PSS = "RSA-2048 PSS"
    case rsa3072PSS = "RSA-3072 PSS"

    /// The TLV that carries this algorithm's signature.
    public var tlvType: TLVType {
        switch self {
        case .ecdsaP256: return .ecdsaSignature
        case .ed25519: return .ed25519
        case .rsa2048PSS: return .rsa2048PSS
        case .rsa3072PSS: return .rsa3072PSS
        }
    }

    /// The algorithm a signature TLV implies. ECDSA_SIG also carries P-384 signatures, but only next to a
    /// SHA384 TLV, which dfu refuses earlier, so next to SHA256 it means P-256.
    public init?(tlvType: TLVType) {
        guard let match = Self.allCases.first(where: { $0.tlvType == tlvType }) else { return nil }
        self = match
    }

    public var description: String { rawValue }

    /// MCUboot requires a PSS salt of exactly 32 bytes (imgtool keys/rsa.py).
    static let rsaPSSSaltLength: Int32 = 32

    var scheme: DigestSignatureScheme {
        switch self {
        case .ecdsaP256: return .ecdsaSHA256
        case .ed25519: return .ed25519DigestAsMessage
        case .rsa2048PSS, .rsa3072PSS: return .rsaPSSSHA256(saltLength: Self.rsaPSSSaltLength)
        }
    }
}
