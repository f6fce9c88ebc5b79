/// Checks an MCUboot image the way `imgtool verify` and the bootloader do, before any byte is sent.
///
/// A file that is not a well-formed image throws. For a well-formed one, every check ends up in the
/// report (passed, failed, or not checked and why), so `dfu verify` can show all of them at once:
/// - hash: SHA-256 over header, body and protected TLVs against the SHA256 TLV (imgtool INVALID_HASH);
/// - signature: the key's signature TLV over the image digest (imgtool INVALID_SIGNATURE). For an
///   encrypted image that digest is the plaintext's: the signature is checked over it, the digest
///   against the image only by the device, after decrypting;
/// - key hash: the KEYHASH TLV (or a full PUBKEY TLV) against the key. imgtool does not check this but
///   MCUboot does at boot: an image whose KEYHASH names another key does not boot;
/// - for a compressed image, the image MCUboot installs from it (`CompressionCheck`).
public enum ImageVerifier {
    /// `decrypted`: the body of this encrypted image has been decrypted (by the virtual device, with
    /// its key), so its hash can be checked as MCUboot checks it.
    public static func verify(bytes: [UInt8], key: PublicKey?, decrypted: Bool = false) throws(ImageError) -> VerificationReport {
        let image = try MCUbootImage(bytes: bytes)
        let digest = try requireSHA256(image)

        let hash = try hashCheck(image, digest: digest, decrypted: decrypted)
        var report = VerificationReport(
            format: "MCUboot",
            version: image.version,
            headerSize: image.header.headerSize,
            bodySize: image.header.imageSize,
            fileSize: bytes.count,
            flags: image.header.flags.rawValue,
            sha256: digest,
            signatureAlgorithm: signatureAlgorithm(in: image, preferring: key?.algorithm),
            hash: hash,
            signature: try signatureCheck(image, digest: digest, hash: hash, key: key),
            keyHash: keyHashCheck(image, key: key))
        report.isEncrypted = image.header.flags.isEncrypted && !decrypted
        if let compression = try ImageCompression(image: image) {
            report.compression = try CompressionCheck.report(image, compression, key: key, decrypted: decrypted)
        }
        return report
    }

    /// The SHA256 TLV, or why the image cannot be checked without one.
    private static func requireSHA256(_ image: MCUbootImage) throws(ImageError) -> [UInt8] {
        if let digest = image.sha256TLV { return digest }
        let types = image.unprotectedTLVs.map(\.type)
        if types.contains(.signaturePure) {
            throw .unsupportedImage(reason: "it is signed in pure mode (SIG_PURE), without an image hash; sign it without --pure")
        }
        // imgtool signs with a P-384 key over SHA-384 and cannot be told otherwise: no re-signing advice.
        if types.contains(.sha384), types.contains(.ecdsaSignature) {
            throw .unsupportedImage(reason: "it is signed with ECDSA P-384 over a SHA-384 hash, which dfu does not support "
                                    + "(dfu takes SHA-256 images, signed with ECDSA P-256, Ed25519, RSA-2048 or RSA-3072)")
        }
        if let other = types.first(where: { $0 == .sha384 || $0 == .sha512 }) {
            throw .unsupportedImage(reason: "it is hashed with \(other) only; dfu and Zephyr's img_mgmt use SHA-256: sign "
                                    + "it with imgtool sign --sha 256")
        }
        throw .missingHash
    }

    private static func hashCheck(_ image: MCUbootImage, digest: [UInt8], decrypted: Bool) throws(ImageError) -> VerificationReport.Check {
        if image.header.flags.isEncrypted && !decrypted {
            // imgtool says INVALID_HASH here; the digest is of the plaintext, so only the device can check it.
            return .notChecked(reason: "encrypted: the device checks it after decrypting")
        }
        let computed = try SHA256.hash(image.bytes[image.hashedRegion])
        return computed == digest ? .passed : .failed(.hashMismatch(expected: digest, computed: computed))
    }

    /// Like bootutil, the signature is checked against the digest in the SHA256 TLV. It can only pass if
    /// the image also matches that digest; otherwise the result says what the signature does prove.
    private static func signatureCheck(_ image: MCUbootImage, digest: [UInt8], hash: VerificationReport.Check,
                                       key: PublicKey?) throws(ImageError) -> VerificationReport.Check {
        guard let key else { return image.signatureTLVs.isEmpty ? .notSigned : .notChecked(reason: "no key given") }
        // imgtool tries every signature TLV of the key's type and accepts the first that verifies.
        let candidates = image.unprotectedTLVs.filter { $0.type == key.algorithm.tlvType }
        guard !candidates.isEmpty else { return .failed(.signatureMissing(keyType: key.algorithm.rawValue)) }
        var verified = false
        for tlv in candidates {
            verified = try key.isValidSignature(tlv.value, forDigest: digest)
            if verified { break }
        }
        guard verified else { return .failed(.signatureInvalid(algorithm: key.algorithm.rawValue)) }
        switch hash {
        case .passed:
            return .passed
        case .failed:
            return .notChecked(reason: "the signature matches the SHA256 TLV, but the image does not match that hash")
        case .notChecked, .notSigned:
            // Encrypted: the signature verifies over the plaintext's hash, which is all it covers;
            // that hash against the image is the device's check (`hash` says so).
            return .passed
        }
    }

    private static func keyHashCheck(_ image: MCUbootImage, key: PublicKey?) -> VerificationReport.Check {
        guard let key else { return .notChecked(reason: "no key given") }
        if let keyHash = image.unprotectedTLV(.keyHash) {
            return keyHash.value == key.keyHash ? .passed : .failed(.keyHashMismatch)
        }
        // imgtool sign --public-key-format full embeds the whole key instead of its hash.
        if let embedded = image.unprotectedTLV(.publicKey) {
            return embedded.value == key.derBytes ? .passed : .failed(.keyHashMismatch)
        }
        return .notChecked(reason: "image has no KEYHASH TLV")
    }

    /// The algorithm of the image's signature: the key's own if the image carries it, else the first found.
    private static func signatureAlgorithm(in image: MCUbootImage, preferring preferred: SignatureAlgorithm?) -> String? {
        let present = image.signatureTLVs.compactMap { SignatureAlgorithm(tlvType: $0.type) }
        if let preferred, present.contains(preferred) { return preferred.rawValue }
        return present.first?.rawValue
    }
}
