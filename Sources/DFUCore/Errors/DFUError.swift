/// Every failure dfu reports, split by whose fault it is (the file, the user, the device, the link, us).
/// `description` says what happened and what to do; `cause`, where the engine knows it, is the typed
/// error underneath, for callers that act on it without parsing text. DFUCore knows no exit codes:
/// the tools map each case to one (`ExitCodes`).
public enum DFUError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line was wrong.
    case usage(String)
    /// The image file (or the key used to check it) is not acceptable.
    case image(ImageError)
    /// A protocol's update file that is not an MCUboot image (a Nordic DFU package, an nRF Connect
    /// SDK zip or one of its images), or the key used to check it, is not acceptable: the protocol's
    /// own error (`DFUError.package(_:)`, `.ncsPackage(_:)` build one).
    case updateFile(ProtocolError)
    /// A file could not be read.
    case fileUnreadable(path: String, reason: String)
    /// The update file is no longer the one an unfinished update started with (`dfu resume`).
    case fileChanged(path: String, was: String, now: String)
    /// The update must not start (battery, power, version, size): nothing was sent. Or the battery
    /// fell during the transfer: the update is on the device, not activated.
    case precondition([PreconditionFailure])
    /// The device could not be found or reached (no adapter, no such device, connect failed).
    case deviceUnreachable(String, cause: FailureCause? = nil)
    /// The transfer stopped before the end; running the same command again resumes it.
    case transferInterrupted(String, cause: FailureCause? = nil)
    /// The device refused the update or broke the protocol.
    case deviceRejected(String, cause: FailureCause? = nil)
    /// After the reboot the device does not run the new image (wrong version, rolled back).
    case postRebootCheckFailed(String, cause: FailureCause? = nil)
    /// The device requires a secure (paired, authenticated) link that could not be set up: no
    /// passkey, a wrong one, pairing rejected or timed out, Just Works where authentication is needed.
    case authenticationFailed(String, cause: FailureCause? = nil)
    /// A bug or an unexpected state of our own.
    case internalError(String, cause: FailureCause? = nil)

    /// The typed error underneath, where the engine knows it.
    public var cause: FailureCause? {
        switch self {
        case .deviceUnreachable(_, let cause), .transferInterrupted(_, let cause), .deviceRejected(_, let cause),
             .postRebootCheckFailed(_, let cause), .authenticationFailed(_, let cause), .internalError(_, let cause):
            return cause
        case .usage, .image, .updateFile, .fileUnreadable, .fileChanged, .precondition:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .usage(let message): return message
        case .image(let error): return error.description
        case .updateFile(let error): return error.description
        case .fileUnreadable(let path, let reason):
            return "cannot read \(path): \(reason). Check the path and its permissions."
        case .fileChanged(let path, let was, let now):
            return "\(path) changed since the update started (SHA-256 \(now.prefix(16))…, the update's was "
                + "\(was.prefix(16))…): it cannot be resumed. Run 'dfu flash' with the file to start over."
        case .precondition(let failures):
            return failures.map(\.description).joined(separator: "; ")
        case .deviceUnreachable(let message, _), .transferInterrupted(let message, _), .deviceRejected(let message, _),
             .postRebootCheckFailed(let message, _), .authenticationFailed(let message, _):
            return message
        case .internalError(let message, _):
            return "internal error: \(message). This is a bug in dfu; please report it with the command you ran."
        }
    }

    /// The same failure with `cause` as its typed cause (words unchanged). Cases without a cause
    /// (usage, image, file, precondition) are returned as they are.
    public func caused(by cause: FailureCause) -> DFUError {
        switch self {
        case .deviceUnreachable(let message, _): return .deviceUnreachable(message, cause: cause)
        case .transferInterrupted(let message, _): return .transferInterrupted(message, cause: cause)
        case .deviceRejected(let message, _): return .deviceRejected(message, cause: cause)
        case .postRebootCheckFailed(let message, _): return .postRebootCheckFailed(message, cause: cause)
        case .authenticationFailed(let message, _): return .authenticationFailed(message, cause: cause)
        case .internalError(let message, _): return .internalError(message, cause: cause)
        case .usage, .image, .updateFile, .fileUnreadable, .fileChanged, .precondition: return self
        }
    }
}
