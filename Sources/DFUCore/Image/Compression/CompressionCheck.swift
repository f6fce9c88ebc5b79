/// The checks sdk-mcuboot's `bootutil_img_validate` (`boot/bootutil/src/image_validate.c`) adds for
/// a compressed image after the usual hash and signature of the file as sent: it decompresses the
/// body as a dry run, hashes the image it would install, requires that hash to equal DECOMP_SHA, and
/// verifies DECOMP_SIGNATURE over it with the key the image's KEYHASH names.
enum CompressionCheck {
    static func report(_ image: MCUbootImage, _ compression: ImageCompression,
                       key: PublicKey?, decrypted: Bool) throws(ImageError) -> CompressionReport {
        let hash = try decompressedHashCheck(image, compression, decrypted: decrypted)
        return CompressionReport(method: compression.method, decompressedSize: compression.decompressedSize,
                                 decompressedSHA256: compression.decompressedSHA256, decompressedHash: hash,
                                 decompressedSignature: try signatureCheck(compression, hash: hash, key: key))
    }

    private static func decompressedHashCheck(_ image: MCUbootImage,
                                              _ compression: ImageCompression, decrypted: Bool) throws(ImageError) -> VerificationReport.Check {
        if image.header.flags.isEncrypted && !decrypted {
            return .notChecked(reason: "the image is encrypted; only the device can decompress it")
        }
        let installed: MCUbootImage
        switch InstalledImage.decompressing(image, compression) {
        case .failure(let error): return .failed(.decompressionFailed(error))
        case .success(let bytes):
            do throws(ImageError) {
                installed = try MCUbootImage(bytes: bytes)
            } catch {
                return .failed(.invalidCompression(reason: "its decompressed image is malformed (\(error))"))
            }
        }
        let computed = try SHA256.hash(installed.bytes[installed.hashedRegion])
        return computed == compression.decompressedSHA256
            ? .passed : .failed(.decompressedHashMismatch(expected: compression.decompressedSHA256, computed: computed))
    }

    /// MCUboot requires DECOMP_SIGNATURE whether or not dfu has the key to check it.
    private static func signatureCheck(_ compression: ImageCompression, hash: VerificationReport.Check,
                                       key: PublicKey?) throws(ImageError) -> VerificationReport.Check {
        guard let signature = compression.decompressedSignature else { return .failed(.decompressedSignatureMissing) }
        guard let key else { return .notChecked(reason: "no key given") }
        guard try key.isValidSignature(signature, forDigest: compression.decompressedSHA256) else {
            return .failed(.decompressedSignatureInvalid(algorithm: key.algorithm.rawValue))
        }
        switch hash {
        case .passed: return .passed
        case .failed: return .notChecked(reason: "the signature matches DECOMP_SHA, but the decompressed image does not match that hash")
        // Encrypted: the signature verifies over DECOMP_SHA, all it covers; the device checks that hash.
        case .notChecked, .notSigned: return .passed
        }
    }
}
