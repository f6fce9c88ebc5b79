/// What `ImageVerifier` found out about one image: every field a user sees in `dfu verify`.
/// A check that was not made (no key given, no KEYHASH TLV) says so instead of passing silently.
public struct VerificationReport: Sendable, Equatable {
    public enum Check: Sendable, Equatable {
        case passed
        case failed(ImageError)
        case notChecked(reason: String)

        public var failed: Bool { if case .failed = self { return true } else { return false } }
    }

    /// "MCUboot". Nordic DFU packages have their own report (`NordicVerificationReport`).
    public var format: String
    public var version: ImageVersion
    /// Header size (`ih_hdr_size`, padding included) and body size (`ih_img_size`).
    public var headerSize: Int
    public var bodySize: Int
    /// The whole file, TLV areas included.
    public var fileSize: Int
    public var flags: UInt32
    /// SHA-256 from the image's SHA256 TLV (what the device reports as the slot hash).
    public var sha256: [UInt8]
    /// The signature algorithm of the signature TLV in the image, if any (e.g. "ECDSA P-256").
    public var signatureAlgorithm: String?
    public var hash: Check
    public var signature: Check
    public var keyHash: Check

    public init(format: String, version: ImageVersion, headerSize: Int, bodySize: Int, fileSize: Int,
                flags: UInt32, sha256: [UInt8], signatureAlgorithm: String?, hash: Check,
                signature: Check, keyHash: Check) {
        self.format = format
        self.version = version
        self.headerSize = headerSize
        self.bodySize = bodySize
        self.fileSize = fileSize
        self.flags = flags
        self.sha256 = sha256
        self.signatureAlgorithm = signatureAlgorithm
        self.hash = hash
        self.signature = signature
        self.keyHash = keyHash
    }

    /// The first failed check, in the order a user should fix them (hash, then signature, then key hash).
    public var firstFailure: ImageError? {
        for check in [hash, signature, keyHash] {
            if case .failed(let error) = check { return error }
        }
        return nil
    }

    /// Exit 0 only when everything that was checked passed.
    public var passed: Bool { firstFailure == nil }
}
