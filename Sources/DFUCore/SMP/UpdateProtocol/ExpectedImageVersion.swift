/// `--expect-version` for an MCUboot image: the version the device must report for it after the
/// reboot. `1.2.3` leaves the build out of the comparison (Zephyr compares major.minor.revision
/// only, unless built to count the build); `1.2.3+45`, or Zephyr's own `1.2.3.45`, compares it too.
struct ExpectedImageVersion: Sendable, Equatable, CustomStringConvertible {
    let version: ImageVersion
    /// The text named a build, so the build counts.
    let comparesBuild: Bool
    /// As the user wrote it, for messages.
    let text: String

    init?(parsing text: String) {
        let zephyr = text.split(separator: ".", omittingEmptySubsequences: false)
        let hasBuild = text.contains("+") || zephyr.count == 4
        // Zephyr's image list writes the build as a fourth dot-separated number.
        let canonical = zephyr.count == 4 && !text.contains("+") ? zephyr.prefix(3).joined(separator: ".") + "+" + zephyr[3] : text
        guard let version = ImageVersion(parsing: canonical) else { return nil }
        self.version = version
        comparesBuild = hasBuild
        self.text = text
    }

    func matches(_ reported: ImageVersion) -> Bool {
        guard comparesBuild else {
            return (reported.major, reported.minor, reported.revision) == (version.major, version.minor, version.revision)
        }
        return reported == version
    }

    var description: String { text }

    /// The option's text for an update of MCUboot images: nil when none was given; a usage error
    /// (exit 2) when it is no version an image carries, or when the image to be sent is another
    /// version, so that the device could never report it: a contradiction found before anything
    /// is connected.
    static func checked(_ text: String?, against image: PreparedImage, name: UpdateImageName?) throws(DFUError) -> ExpectedImageVersion? {
        guard let text else { return nil }
        guard let expected = ExpectedImageVersion(parsing: text) else {
            throw .usage("--expect-version \(text) is not a version an MCUboot image carries: give MAJOR.MINOR.REVISION, "
                         + "with +BUILD to compare the build too (e.g. 1.1.0 or 1.1.0+3)")
        }
        guard expected.matches(image.version) else {
            let which = name.map { "\($0) of the file" } ?? "the image"
            throw .usage("--expect-version \(text) cannot be met: \(which) is version \(image.version), which is what the "
                         + "device reports once it runs it. Check the file, or the version expected.")
        }
        return expected
    }
}
