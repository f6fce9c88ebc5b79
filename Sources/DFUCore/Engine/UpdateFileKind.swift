/// Which protocol an update file is for, told by its content (not its name): a zip archive is a
/// Nordic DFU package, anything else is read as an MCUboot image (whose parser says what is wrong
/// with a file that is neither).
enum UpdateFileKind: Sendable, Equatable {
    case mcubootImage
    case nordicPackage

    init(of bytes: [UInt8]) {
        self = ZipArchive.looksLikeZip(bytes) ? .nordicPackage : .mcubootImage
    }
}
