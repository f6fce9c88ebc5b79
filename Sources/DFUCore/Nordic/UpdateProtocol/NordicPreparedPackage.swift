/// A Nordic DFU package after the verify-image stage: read, every image checked as `dfu verify`
/// checks it (hash, size, signature with the key), in the order the images are sent.
///
/// One image, or a system part (softdevice_bootloader, softdevice or bootloader) and then an
/// application, each sent with its own init packet in its own connection (nordic-secure-dfu.md
/// §3.5). Like Nordic's iOS library (`Manifest.isValid`, at most one system part), a package with
/// more parts than that is a usage error.
struct NordicPreparedPackage: PreparedUpdate {
    let package: NordicPackage
    let report: NordicVerificationReport
    /// The application's fw_version (the single image's, without one) as nrfutil writes a version
    /// string into it (MAJOR·10000 + MINOR·100 + PATCH: `--application-version-string 2.7.31` is
    /// 20731), for the preconditions and the events. The bootloader compares the integer itself
    /// (downgrade prevention).
    let version: ImageVersion
    let summary: ImageSummary
    let signatureWarning: String?
    let parts: [UpdatePart]

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
        let images = package.images
        guard let last = images.last, images.count == report.images.count,
              images.count == 1 || (images.count == 2 && last.kind == .application) else {
            let kinds = images.map(\.kind.rawValue).joined(separator: " + ")
            throw .usage("the package holds \(kinds); dfu flashes one image, or one system part (softdevice_bootloader, "
                         + "softdevice or bootloader) and an application. Make one package per update with nrfutil pkg generate.")
        }
        self.package = package
        self.report = report
        let fwVersion = last.initPacket.initCommand.fwVersion ?? 0
        version = Self.version(fromNrfutil: fwVersion)
        parts = images.enumerated().map { index, image in
            UpdatePart(name: image.kind.rawValue, number: index + 1, count: images.count, size: image.firmware.count)
        }
        let signatures = report.images.map { image -> String? in
            guard case .passed = image.signature else { return nil }
            return image.signatureType ?? "ECDSA P-256"
        }
        let signed: String? = signatures.contains(nil) ? nil : signatures.last ?? nil
        signatureWarning = signed == nil
            ? (key == nil ? "the package's signature was not checked (no --key); the device's bootloader will check it"
                          : "the package is not signed (--allow-unsigned); only a bootloader built without signature checks accepts it")
            : nil
        let versionText = images.map(Self.words).joined(separator: " + ")
        summary = ImageSummary(version: version, versionText: versionText, size: images.reduce(0) { $0 + $1.firmware.count },
                               sha256: report.images.last?.sha256 ?? [], signatureChecked: signed)
    }

    /// nrfutil's `--application-version-string` encoding read back: 20731 → 2.7.31.
    static func version(fromNrfutil value: UInt32) -> ImageVersion {
        ImageVersion(major: UInt8(clamping: value / 10_000), minor: UInt8(clamping: value / 100 % 100),
                     revision: UInt16(value % 100))
    }

    /// The inverse, for a version read from a firmware revision: 2.7.31 → 20731; nil when it has
    /// no such encoding (a minor or revision of 100 or more).
    static func nrfutilValue(of version: ImageVersion) -> UInt32? {
        guard version.minor < 100, version.revision < 100 else { return nil }
        return UInt32(version.major) * 10_000 + UInt32(version.minor) * 100 + UInt32(version.revision)
    }

    /// An image as the package names it: `application fw_version 3`.
    static func words(_ image: NordicPackage.Image) -> String {
        "\(image.kind) fw_version \(image.initPacket.initCommand.fwVersion ?? 0)"
    }

    /// The package's application, which the device reports a version for afterwards; nil for a
    /// package of a system part alone (whose version the bootloader checks itself).
    var application: NordicPackage.Image? {
        package.images.last.flatMap { $0.kind == .application ? $0 : nil }
    }

    /// What the parts numbered other than `skipped` update, as the package names them:
    /// `softdevice_bootloader fw_version 2 + application fw_version 3`.
    func words(skipping skipped: Set<Int>) -> String {
        package.images.enumerated().filter { !skipped.contains($0.offset + 1) }.map { Self.words($0.element) }
            .joined(separator: " + ")
    }

    /// The image, init packet and firmware, that `part` sends.
    func image(for part: UpdatePart) -> NordicPackage.Image? {
        let index = part.number - 1
        return package.images.indices.contains(index) ? package.images[index] : nil
    }
}
