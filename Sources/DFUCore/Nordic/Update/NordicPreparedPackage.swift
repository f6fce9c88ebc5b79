/// A Nordic DFU package after the verify-image stage: read, every image checked as `dfu verify`
/// checks it (hash, size, signature with the key), in the order the images are sent.
struct NordicPreparedPackage: PreparedUpdate {
    let package: NordicPackage
    let report: NordicVerificationReport
    /// The application's fw_version as nrfutil writes a version string into it (MAJOR·10000 +
    /// MINOR·100 + PATCH: `--application-version-string 2.7.31` is 20731), for the preconditions
    /// and the events. The bootloader compares the integer itself (downgrade prevention).
    let version: ImageVersion
    let summary: ImageSummary
    let signatureWarning: String?

    var size: Int { package.images.reduce(0) { $0 + $1.firmware.count } }

    init(bytes: [UInt8], key: PublicKey?, allowUnsigned: Bool) throws(DFUError) {
        let package: NordicPackage
        let report: NordicVerificationReport
        do throws(NordicPackageError) {
            package = try NordicPackage(zipBytes: bytes)
            report = try NordicPackageVerifier.verify(package, key: key, allowUnsigned: allowUnsigned)
        } catch {
            throw .package(error)
        }
        if let failure = report.firstFailure { throw .package(failure) }
        guard package.images.count == 1, let image = package.images.first, let imageReport = report.images.first else {
            let kinds = package.images.map(\.kind.rawValue).joined(separator: " + ")
            throw .usage("the package holds \(kinds); dfu flashes Nordic packages with one image (an application, a "
                         + "bootloader or a SoftDevice) so far. Make one package per part with nrfutil pkg generate.")
        }
        self.package = package
        self.report = report
        let fwVersion = image.initPacket.initCommand.fwVersion ?? 0
        version = Self.version(fromNrfutil: fwVersion)
        let signed: String?
        switch imageReport.signature {
        case .passed: signed = imageReport.signatureType ?? "ECDSA P-256"
        default: signed = nil
        }
        signatureWarning = signed == nil
            ? (key == nil ? "the package's signature was not checked (no --key); the device's bootloader will check it"
                          : "the package is not signed (--allow-unsigned); only a bootloader built without signature checks accepts it")
            : nil
        summary = ImageSummary(version: version, versionText: "\(image.kind) fw_version \(fwVersion)",
                               size: image.firmware.count, sha256: imageReport.sha256, signatureChecked: signed)
    }

    /// nrfutil's `--application-version-string` encoding read back: 20731 → 2.7.31.
    static func version(fromNrfutil value: UInt32) -> ImageVersion {
        ImageVersion(major: UInt8(clamping: value / 10_000), minor: UInt8(clamping: value / 100 % 100),
                     revision: UInt16(value % 100))
    }

    /// The one image, its init packet and firmware, as sent.
    var image: NordicPackage.Image? { package.images.first }
}
