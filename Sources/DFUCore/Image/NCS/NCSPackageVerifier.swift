/// Checks every image of an NCS zip as `dfu verify` checks a single MCUboot image (`ImageVerifier`:
/// header and TLV layout, SHA-256, and with a key the signature and key hash). All images are
/// checked, so the report shows each; the zip passes only if every one does.
public enum NCSPackageVerifier {
    public static func verify(_ package: NCSPackage, key: PublicKey?) -> NCSVerificationReport {
        let images = package.images.map { image in
            let result: Result<VerificationReport, ImageError>
            do throws(ImageError) {
                result = .success(try ImageVerifier.verify(bytes: image.bytes, key: key))
            } catch {
                result = .failure(error)
            }
            return NCSVerificationReport.ImageReport(entry: image.entry, role: image.role, result: result)
        }
        return NCSVerificationReport(manifest: package.manifest, images: images)
    }
}
