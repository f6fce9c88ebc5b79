/// Every failure dfu reports, split by whose fault it is (the file, the user, the device, the link, us).
/// `description` says what happened and what to do; `exitStatus` is the one place that maps a failure to
/// the documented exit code.
public enum DFUError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line was wrong.
    case usage(String)
    /// The image file (or the key used to check it) is not acceptable.
    case image(ImageError)
    /// A file could not be read.
    case fileUnreadable(path: String, reason: String)
    /// A bug or an unexpected state of our own.
    case internalError(String)

    public var exitStatus: ExitStatus {
        switch self {
        case .usage: return .usage
        case .image, .fileUnreadable: return .imageInvalid
        case .internalError: return .internalError
        }
    }

    public var description: String {
        switch self {
        case .usage(let message): return message
        case .image(let error): return error.description
        case .fileUnreadable(let path, let reason):
            return "cannot read \(path): \(reason). Check the path and its permissions."
        case .internalError(let message):
            return "internal error: \(message). This is a bug in dfu; please report it with the command you ran."
        }
    }
}
