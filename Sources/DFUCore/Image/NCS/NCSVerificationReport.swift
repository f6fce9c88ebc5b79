/// What `NCSPackageVerifier` found out about an NCS zip: the manifest's facts and, for every image in
/// manifest order, what it is for and what `ImageVerifier` says about it (or why it is not an image).
public struct NCSVerificationReport: Sendable {
    public struct ImageReport: Sendable {
        public let entry: NCSManifestFile
        public let role: NCSImageRole
        /// The image's checks, or why it is not a well-formed MCUboot image.
        public let result: Result<VerificationReport, ImageError>

        public var imageIndex: Int { entry.imageIndex }

        /// Whether the version the manifest states is the image header's; nil when the manifest states
        /// none, states one that is not `M.m.r[+b]` (a network core's NSIB firmware version is a plain
        /// number), or the image could not be read. A difference is shown, not refused: the phone apps
        /// do not compare them either.
        public var manifestVersionAgrees: Bool? {
            guard case .success(let checks) = result, let stated = entry.statedVersion,
                  let version = ImageVersion(parsing: stated.value) else { return nil }
            return version == checks.version
        }

        /// Why this image fails, if it does: the parse error, or its first failed check.
        public var firstFailure: ImageError? {
            switch result {
            case .failure(let error): return error
            case .success(let report): return report.firstFailure
            }
        }
    }

    public let manifest: NCSManifest
    public let images: [ImageReport]

    /// The first image that fails, in manifest order, as the error that refuses the zip.
    public var firstFailure: NCSPackageError? {
        for image in images {
            if let error = image.firstFailure {
                return .image(file: image.entry.file, imageIndex: image.imageIndex, error)
            }
        }
        return nil
    }

    /// Exit 0 only when every check made on every image passed.
    public var passed: Bool { firstFailure == nil }
}
