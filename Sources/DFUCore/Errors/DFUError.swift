/// Every failure dfu reports, split by whose fault it is (the file, the user, the device, the link, us).
/// `description` says what happened and what to do; `exitStatus` is the one place that maps a failure to
/// the documented exit code.
public enum DFUError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line was wrong.
    case usage(String)
    /// The image file (or the key used to check it) is not acceptable.
    case image(ImageError)
    /// The Nordic DFU package (or the key used to check it) is not acceptable.
    case package(NordicPackageError)
    /// A file could not be read.
    case fileUnreadable(path: String, reason: String)
    /// The update must not start (battery, power, version, size). Nothing was sent.
    case precondition([PreconditionFailure])
    /// The device could not be found or reached (no adapter, no such device, connect failed).
    case deviceUnreachable(String)
    /// The transfer stopped before the end; running the same command again resumes it.
    case transferInterrupted(String)
    /// The device refused the update or broke the protocol.
    case deviceRejected(String)
    /// After the reboot the device does not run the new image (wrong version, rolled back).
    case postRebootCheckFailed(String)
    /// The device requires a secure (paired, authenticated) link that could not be set up: no
    /// passkey, a wrong one, pairing rejected or timed out, Just Works where authentication is needed.
    case authenticationFailed(String)
    /// A bug or an unexpected state of our own.
    case internalError(String)

    public var exitStatus: ExitStatus {
        switch self {
        case .usage: return .usage
        case .image, .package, .fileUnreadable: return .imageInvalid
        case .precondition: return .preconditionNotMet
        case .deviceUnreachable: return .deviceUnreachable
        case .transferInterrupted: return .transferInterrupted
        case .deviceRejected: return .deviceRejected
        case .postRebootCheckFailed: return .postRebootCheckFailed
        case .authenticationFailed: return .authenticationFailed
        case .internalError: return .internalError
        }
    }

    public var description: String {
        switch self {
        case .usage(let message): return message
        case .image(let error): return error.description
        case .package(let error): return error.description
        case .fileUnreadable(let path, let reason):
            return "cannot read \(path): \(reason). Check the path and its permissions."
        case .precondition(let failures):
            return failures.map(\.description).joined(separator: "; ")
        case .deviceUnreachable(let message), .transferInterrupted(let message), .deviceRejected(let message),
             .postRebootCheckFailed(let message), .authenticationFailed(let message):
            return message
        case .internalError(let message):
            return "internal error: \(message). This is a bug in dfu; please report it with the command you ran."
        }
    }
}
