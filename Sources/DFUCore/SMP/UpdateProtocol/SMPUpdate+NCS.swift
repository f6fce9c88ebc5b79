/// An nRF Connect SDK `dfu_application.zip` as an SMP update: every image of the manifest verified
/// as `dfu verify` does before anything is connected (one bad image refuses the whole zip), each
/// for its image index; a direct-XIP build's variants kept side by side until the device says which
/// slot is free.
extension SMPUpdate {
    init(ncsZip bytes: [UInt8], key: PublicKey?) throws(DFUError) {
        let package: NCSPackage
        do throws(NCSPackageError) { package = try NCSPackage(zipBytes: bytes) } catch { throw .ncsPackage(error) }
        if let bootloader = package.images.first(where: { $0.entry.type == "mcuboot" }) {
            throw .usage("the zip updates MCUboot itself (\(bootloader.file), type mcuboot): dfu flashes application "
                         + "images only. Flash the application's images from a build without the bootloader update.")
        }
        var images: [SMPUpdateImage] = []
        for index in package.imageIndexes {
            let entries = package.images(forImageIndex: index)
            let prepared = try entries.map { entry throws(DFUError) in try Self.prepare(entry, key: key) }
            let name = UpdateImageName(index: index, role: Self.role(of: entries))
            let variants = zip(entries, prepared).compactMap { entry, image in
                entry.role.directXIP.map { SMPUpdateImage.Variant(slot: $0.slotInImage, image: image) }
            }
            if variants.isEmpty, entries.count == 1, let image = prepared.first {
                images.append(SMPUpdateImage(name: name, image: image))
            } else if variants.count != entries.count {
                // Only direct-XIP variants may share an image index (NCSPackage checks the rest).
                throw .ncsPackage(.ambiguousImage(index: index, files: entries.map(\.file)))
            } else {
                images.append(try SMPUpdateImage(name: name, variants: variants))
            }
        }
        try self.init(images: images)
    }

    private static func prepare(_ entry: NCSPackage.Image, key: PublicKey?) throws(DFUError) -> PreparedImage {
        do throws(DFUError) {
            return try PreparedImage(bytes: entry.bytes, key: key)
        } catch {
            if case .image(let failure) = error {
                throw .ncsPackage(.image(file: entry.file, imageIndex: entry.imageIndex, failure))
            }
            throw error
        }
    }

    /// The core the manifest's `board` names, when it names one.
    private static func role(of entries: [NCSPackage.Image]) -> String? {
        guard let core = entries.first?.role.core, core != .unnamed else { return nil }
        return core.rawValue
    }
}

extension NCSImageRole.DirectXIPSlot {
    /// The slot within its image index (img_mgmt's `slot`): zip.cmake numbers them image * 2 + slot.
    var slotInImage: Int {
        switch self {
        case .primary: return 0
        case .secondary: return 1
        }
    }
}
