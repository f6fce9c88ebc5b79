/// What `ImageVerifier` found out about one image: every field a user sees in `dfu verify`.
/// A check that was not made (no key given, no KEYHASH TLV) says so instead of passing silently.
public struct VerificationReport: Sendable, Equatable {
    public enum Check: Sendable, Equatable {
        case passed
        case failed(ImageError)
        case notChecked(reason: String)
        /// The signature only, without a key: the image carries no signature to check.
        case notSigned

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
    /// The body is encrypted (`IMAGE_F_ENCRYPTED_*`): the SHA256 TLV is the plaintext's hash, so
    /// `hash` is not checked here, and a `signature` that passed was checked over that hash alone.
    public var isEncrypted = false
    /// The signature algorithm of the signature TLV in the image, if any (e.g. "ECDSA P-256").
    public var signatureAlgorithm: String?
    public var hash: Check
    public var signature: Check
    public var keyHash: Check
    /// For a compressed image: what MCUboot will install from it and whether that checks out. nil
    /// for an image that is not compressed.
    public var compression: CompressionReport?

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

    /// Every check, in the order a user should fix them: hash, signature, key hash, then those of
    /// the decompressed image.
    public var checks: [Check] {
        [hash, signature, keyHash] + (compression.map { [$0.decompressedHash, $0.decompressedSignature] } ?? [])
    }

    /// The hash slot 0 reports once the device has installed this image: DECOMP_SHA for a
    /// compressed image (MCUboot installs the decompressed one), else the SHA256 TLV.
    public var installedHash: [UInt8] { compression?.decompressedSHA256 ?? sha256 }

    /// The first failed check, in the order of `checks`.
    public var firstFailure: ImageError? {
        for check in checks {
            if case .failed(let error) = check { return error }
        }
        return nil
    }

    /// Exit 0 only when everything that was checked passed.
    public var passed: Bool { firstFailure == nil }
}

/// The compressed-image part of a `VerificationReport`: how the body is compressed and the image
/// MCUboot installs from it (sdk-mcuboot `bootutil_img_validate`: a dry-run decompression whose
/// hash must equal DECOMP_SHA, then DECOMP_SIGNATURE checked against that hash).
public struct CompressionReport: Sendable, Equatable {
    public var method: ImageCompression.Method
    /// DECOMP_SIZE: the installed body.
    public var decompressedSize: Int
    /// DECOMP_SHA: what slot 0 reports as its hash after the install.
    public var decompressedSHA256: [UInt8]
    /// The decompressed image's SHA-256 against DECOMP_SHA.
    public var decompressedHash: VerificationReport.Check
    /// DECOMP_SIGNATURE against DECOMP_SHA, with the key.
    public var decompressedSignature: VerificationReport.Check

    public init(method: ImageCompression.Method, decompressedSize: Int, decompressedSHA256: [UInt8],
                decompressedHash: VerificationReport.Check, decompressedSignature: VerificationReport.Check) {
        self.method = method
        self.decompressedSize = decompressedSize
        self.decompressedSHA256 = decompressedSHA256
        self.decompressedHash = decompressedHash
        self.decompressedSignature = decompressedSignature
    }
}
