/// An nRF Connect SDK `dfu_application.zip`, opened and checked for consistency but its images not yet
/// verified: every image its manifest lists, in manifest order, with the bytes to upload to that image
/// index. The zip is read with the same bounds as a Nordic package (`ZipArchive`, `ZipLimits`): unsafe
/// entry names refused, every size bounded before it is read.
///
///     let package = try NCSPackage(zipBytes: bytes)
///     for image in package.images { image.imageIndex; image.role; image.bytes }
///     let report = NCSPackageVerifier.verify(package, key: key)
public struct NCSPackage: Sendable {
    public struct Image: Sendable {
        /// The manifest entry, as written.
        public let entry: NCSManifestFile
        public let role: NCSImageRole
        /// The signed MCUboot image, as the zip holds it.
        public let bytes: [UInt8]

        /// The MCUboot image number to upload it to (SMP `image`).
        public var imageIndex: Int { entry.imageIndex }
        public var file: String { entry.file }
    }

    public let manifest: NCSManifest
    public let images: [Image]

    public init(zipBytes: [UInt8], limits: ZipLimits = .firmwarePackage) throws(NCSPackageError) {
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes: zipBytes, limits: limits) } catch { throw .archive(error) }
        guard let manifestEntry = archive.entry(named: "manifest.json") else { throw .manifestMissing }
        let manifest = try NCSManifest(json: manifestEntry.bytes)
        var images: [Image] = []
        for file in manifest.files {
            guard !images.contains(where: { $0.file == file.file }) else { throw .duplicateFile(name: file.file) }
            // Android's ZipPackage reads `type == "mcuboot"` images (a bootloader update) like applications.
            guard ["application", "mcuboot"].contains(file.type) else {
                throw .unsupportedType(file: file.file, type: file.type)
            }
            if file.versionB0 != nil && file.statedVersion == nil { throw .notMCUboot(file: file.file) }
            // The entry names in the archive passed ZipEntryName's checks; a manifest name that is not
            // among them (`../x`, `/x`) is simply missing.
            guard let entry = archive.entry(named: file.file) else { throw .missingFile(name: file.file) }
            guard entry.bytes.count == file.size else {
                throw .sizeMismatch(file: file.file, declared: file.size, actual: entry.bytes.count)
            }
            images.append(Image(entry: file, role: NCSImageRole(file), bytes: entry.bytes))
        }
        try Self.checkImageIndexes(images)
        self.manifest = manifest
        self.images = images
    }

    /// The images for MCUboot image `index`, in manifest order: one, or one direct-XIP variant per slot.
    public func images(forImageIndex index: Int) -> [Image] { images.filter { $0.imageIndex == index } }

    /// The image indexes the zip updates, ascending.
    public var imageIndexes: [Int] { Array(Set(images.map(\.imageIndex))).sorted() }

    /// Several entries may share an image index only as direct-XIP variants for different slots, or
    /// as bootloader images (`type: mcuboot`, told apart by slot or by manifest order as Android does).
    private static func checkImageIndexes(_ images: [Image]) throws(NCSPackageError) {
        for (position, image) in images.enumerated() where image.entry.type != "mcuboot" {
            let clashing = images[(position + 1)...].filter {
                $0.entry.type != "mcuboot" && $0.imageIndex == image.imageIndex
                    && ($0.entry.slot == nil || $0.entry.slot == image.entry.slot)
            }
            if let other = clashing.first {
                throw .ambiguousImage(index: image.imageIndex, files: [image.file, other.file])
            }
        }
    }

    /// Whether `zipBytes` are a zip whose manifest.json is an NCS manifest (not a Nordic package's).
    /// Only manifest.json is read here, so a zip with a hostile entry is still told apart; the reader
    /// then refuses it.
    public static func looksLikeNCSPackage(_ zipBytes: [UInt8]) -> Bool {
        guard let manifest = ZipArchive.peekEntry(named: "manifest.json", in: zipBytes, limit: NCSManifest.maximumSize)
        else { return false }
        return NCSManifest.describesNCSPackage(json: manifest)
    }
}
