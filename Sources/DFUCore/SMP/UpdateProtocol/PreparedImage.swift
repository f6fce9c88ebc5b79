/// The image after the verify-image stage: checked, with the two hashes the update needs.
///
/// - `slotHash`, the SHA256 TLV, is what the device reports for a slot (image state `hash`); it
///   names the image in state writes and proves, after the reboot, that the new image runs.
/// - `installedHash` is what slot 0 reports once the device runs it: DECOMP_SHA for a compressed
///   image (MCUboot installs the decompressed image), else `slotHash`.
/// - `fileSHA256`, the SHA-256 of the whole file, is the upload's session id (`sha` in the first
///   packet), so a second run resumes the device's session instead of starting over.
struct PreparedImage: Sendable {
    let bytes: [UInt8]
    let version: ImageVersion
    let slotHash: [UInt8]
    let installedHash: [UInt8]
    let fileSHA256: [UInt8]
    let summary: ImageSummary
    /// Set when the image was accepted without its signature checked (no key given).
    let signatureWarning: String?
    /// What to check when the device boots its old image instead: the signing key, and what an
    /// encrypted or compressed image also needs from the bootloader.
    let rollbackHint: String

    /// Checks `bytes` as `dfu verify` does. A malformed image or a failed check is
    /// `DFUError.image` (exit 3): nothing has been connected to yet.
    init(bytes: [UInt8], key: PublicKey?) throws(DFUError) {
        let report: VerificationReport
        let fileSHA256: [UInt8]
        do throws(ImageError) {
            report = try ImageVerifier.verify(bytes: bytes, key: key)
            fileSHA256 = try SHA256.hash(bytes)
        } catch {
            throw .image(error)
        }
        if let failure = report.firstFailure { throw .image(failure) }
        var warning: String?
        var checkedWith: String?
        switch report.signature {
        case .passed:
            checkedWith = report.signatureAlgorithm ?? key?.algorithm.rawValue
        case .notSigned:
            warning = "the image is not signed; only a bootloader built to boot unsigned images will run it"
        case .notChecked(let reason):
            warning = key == nil
                ? "the image's signature was not checked (no --key); the device's bootloader will check it"
                : "the image's signature was not checked (\(reason)); the device's bootloader will check it"
        case .failed(let error):
            throw .image(error) // firstFailure covers this; kept so no case passes silently
        }
        self.bytes = bytes
        self.version = report.version
        self.slotHash = report.sha256
        self.installedHash = report.installedHash
        self.fileSHA256 = fileSHA256
        self.signatureWarning = warning
        var needs = ["signed with the key the device's MCUboot was built with"]
        if MCUbootHeader.Flags(rawValue: report.flags).isEncrypted {
            needs.append("encrypted for the key it decrypts with")
        }
        if report.compression != nil {
            needs.append("that its MCUboot decompresses (an overwrite-only build with decompression)")
        }
        rollbackHint = "Check that the image is " + needs.joined(separator: ", and ") + "."
        var summary = ImageSummary(version: report.version, size: bytes.count, sha256: report.sha256,
                                   signatureChecked: checkedWith)
        if case .notChecked = report.hash { summary.hashChecked = false }
        if report.signature == .notSigned { summary.isSigned = false }
        self.summary = summary
    }
}
