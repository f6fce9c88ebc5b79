/// A Nordic Secure DFU package (the .zip `nrfutil pkg generate` writes), opened and decoded but not yet
/// verified: its images in update order, each with the `.bin` to send as data and the `.dat` init packet
/// to send as the command object, verbatim.
///
///     let package = try NordicPackage(zipBytes: bytes)
///     for image in package.images { image.initPacket.bytes; image.firmware }
///     let report = try NordicPackageVerifier.verify(package, key: key, allowUnsigned: false)
public struct NordicPackage: Sendable {
    public struct Image: Sendable {
        public let kind: NordicImageKind
        public let binFile: String
        public let datFile: String
        /// The `.bin` as stored in the zip (nrfutil pads it to a multiple of 4; the hash covers the padding).
        public let firmware: [UInt8]
        public let initPacket: NordicInitPacket
        /// `info_read_only_metadata` of a softdevice_bootloader part.
        public let manifestSoftdeviceSize: Int?
        public let manifestBootloaderSize: Int?
    }

    /// System part first (softdevice_bootloader, softdevice, bootloader), application last.
    public let images: [Image]

    public init(zipBytes: [UInt8], limits: ZipLimits = .firmwarePackage) throws(NordicPackageError) {
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes: zipBytes, limits: limits) } catch { throw .archive(error) }
        guard let manifestEntry = archive.entry(named: "manifest.json") else { throw .manifestMissing }
        let manifest = try NordicManifest(json: manifestEntry.bytes)
        var images: [Image] = []
        for part in manifest.parts {
            guard let bin = archive.entry(named: part.binFile) else { throw .missingFile(name: part.binFile, part: part.kind) }
            guard let dat = archive.entry(named: part.datFile) else { throw .missingFile(name: part.datFile, part: part.kind) }
            let initPacket = try NordicInitPacket(bytes: dat.bytes, file: part.datFile)
            let type = initPacket.initCommand.type ?? .application  // proto2 default: the first enum value
            guard part.kind.allowedTypes.contains(type) else {
                throw .typeMismatch(part: part.kind, initType: type.description)
            }
            images.append(Image(kind: part.kind, binFile: part.binFile, datFile: part.datFile, firmware: bin.bytes,
                                initPacket: initPacket, manifestSoftdeviceSize: part.softdeviceSize,
                                manifestBootloaderSize: part.bootloaderSize))
        }
        self.images = images
    }
}
