/// Why an nRF Connect SDK `dfu_application.zip` was refused. Each description says what is wrong and
/// what to do; the tools exit 3 for all of them (`DFUError.ncsPackage(_:)`). Names from the zip are shown
/// escaped by the archive reader or cut short (`NCSManifestFieldReader.shown`).
public enum NCSPackageError: Error, Sendable, Equatable, CustomStringConvertible {
    case archive(ArchiveError)
    case manifestMissing
    case manifestInvalid(reason: String)
    case formatVersionUnsupported(Int)
    /// The manifest names a file the zip does not hold.
    case missingFile(name: String)
    /// Two manifest entries name the same file.
    case duplicateFile(name: String)
    /// The manifest's `size` differs from the bytes the zip holds under that name.
    case sizeMismatch(file: String, declared: Int, actual: Int)
    /// A type dfu does not update with MCUboot images (SUIT envelopes and caches, or unknown).
    case unsupportedType(file: String, type: String)
    /// An image for the nRF Secure Immutable Bootloader (b0), which is not an MCUboot image.
    case notMCUboot(file: String)
    /// Two entries for one image index that no slot tells apart: which one to send is ambiguous.
    case ambiguousImage(index: Int, files: [String])
    /// An image that is not a well-formed MCUboot image, or whose hash, signature or key hash failed.
    case image(file: String, imageIndex: Int, ImageError)

    public var description: String {
        switch self {
        case .archive(.unsafeEntryName(let name, let reason)):
            // ArchiveError's own text points to nrfutil, which does not make these zips.
            return "cannot read the nRF Connect SDK zip: zip entry \(name) has an unsafe name (\(reason)); dfu refuses such archives. Rebuild the zip with the nRF Connect SDK (west build)."
        case .archive(let error):
            return "cannot read the nRF Connect SDK zip: \(error.description)"
        case .manifestMissing:
            return "the zip has no manifest.json, so it is not an nRF Connect SDK dfu_application.zip. Pass the zip the build wrote (build/dfu_application.zip)."
        case .manifestInvalid(let reason):
            return "the zip's manifest.json is invalid: \(reason). Rebuild the zip with the nRF Connect SDK (west build)."
        case .formatVersionUnsupported(let version):
            return "the zip's manifest.json has format-version \(version); dfu reads format-version 0 and 1. Update dfu, or build the zip with an nRF Connect SDK that writes a version dfu knows."
        case .missingFile(let name):
            return "the manifest names \(NCSManifestFieldReader.shown(name)), which the zip does not hold. The zip is incomplete; rebuild it."
        case .duplicateFile(let name):
            return "the manifest names \(NCSManifestFieldReader.shown(name)) twice. Rebuild the zip."
        case .sizeMismatch(let file, let declared, let actual):
            return "the manifest says \(NCSManifestFieldReader.shown(file)) is \(declared) bytes, but the zip holds \(actual). The zip was changed after it was built; rebuild it and do not flash this one."
        case .unsupportedType(let file, let type):
            let suit = type == "suit-envelope" || type == "cache"
            return "\(NCSManifestFieldReader.shown(file)) has type \(NCSManifestFieldReader.shown(type))"
                + (suit ? ", a SUIT update, which dfu does not perform" : ", which dfu does not know")
                + ". dfu updates MCUboot images (type application or mcuboot)."
        case .notMCUboot(let file):
            return "\(NCSManifestFieldReader.shown(file)) is an image for the nRF Secure Immutable Bootloader (version_B0), not an MCUboot image; dfu updates MCUboot images only."
        case .ambiguousImage(let index, let files):
            return "the manifest lists \(files.map(NCSManifestFieldReader.shown).joined(separator: " and ")) for image \(index) and no slot tells them apart. Rebuild the zip."
        case .image(let file, let index, let error):
            return "\(NCSManifestFieldReader.shown(file)) (image \(index)): \(error.description)"
        }
    }
}
