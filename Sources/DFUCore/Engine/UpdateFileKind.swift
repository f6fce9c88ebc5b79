/// Which protocol an update file is for, told by its content (not its name): a zip archive whose
/// manifest.json is an nRF Connect SDK one (`NCSPackage.looksLikeNCSPackage`) is an NCS zip, any other
/// zip a Nordic DFU package, anything else is read as an MCUboot image (whose parser says what is
/// wrong with a file that is none of these).
public enum UpdateFileKind: Sendable, Equatable {
    case mcubootImage
    case nordicPackage
    /// An nRF Connect SDK dfu_application.zip: MCUboot images for one or more image indexes.
    case ncsPackage

    public init(of bytes: [UInt8]) {
        if !ZipArchive.looksLikeZip(bytes) {
            self = .mcubootImage
        } else {
            self = NCSPackage.looksLikeNCSPackage(bytes) ? .ncsPackage : .nordicPackage
        }
    }
}
