/// What SMP sends in one run: one MCUboot image, or every image of an nRF Connect SDK zip, each to
/// its image index (an nRF5340's application core, image 0, and network core, image 1). All are
/// uploaded, then marked, then one reset installs them together (multi-image MCUboot boots them as
/// a set), then each is checked.
struct SMPUpdate: Sendable {
    /// Ascending by image index, at least one; the first is the one the device's facts (running
    /// version, slot size) and the run's result are about.
    var images: [SMPUpdateImage]
    /// The bootloader's mode, as the read-device-state stage found it.
    var bootloaderMode: MCUbootMode?
    /// `--expect-version`: what the first image must report after the reboot.
    var expected: ExpectedImageVersion?

    /// A single image file, to image index `index` (`--image N`; 0 by default).
    init(image: PreparedImage, index: UInt64) {
        images = [SMPUpdateImage(name: UpdateImageName(index: Int(clamping: index)), image: image)]
    }

    init(images: [SMPUpdateImage]) throws(DFUError) {
        guard !images.isEmpty else { throw .internalError("an SMP update without images") }
        self.images = images.sorted { $0.index < $1.index }
    }

    /// The first image: the device's facts and the run's result are about it.
    var main: SMPUpdateImage { images[0] }
    var hasSeveralImages: Bool { images.count > 1 }
}

extension SMPUpdate: PreparedUpdate {
    var version: ImageVersion { main.image.version }
    var size: Int { images.reduce(0) { $0 + $1.image.bytes.count } }
    var summary: ImageSummary { main.image.summary }
    var signatureWarning: String? { images.lazy.compactMap(\.image.signatureWarning).first }

    var summaries: [ImageSummary] {
        guard hasSeveralImages else { return [summary] }
        return images.map { entry in
            var summary = entry.image.summary
            summary.image = entry.name
            return summary
        }
    }

    var parts: [UpdatePart] {
        guard hasSeveralImages else {
            return [UpdatePart(name: "image", number: 1, count: 1, size: size)]
        }
        return images.enumerated().map { position, entry in
            UpdatePart(name: entry.name.description, number: position + 1, count: images.count,
                       size: entry.image.bytes.count, image: entry.name)
        }
    }
}
