import Transport

/// Why a `PseudoTerminal` could not be made or written. Each `description` says what happened and
/// what to try.
public enum PseudoTerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Making the pseudo-terminal failed (`/dev/ptmx`, its ioctls, the device side's set-up).
    case system(SystemCallError)
    /// Something that is not a symbolic link is at the path the device was to be linked at; it is
    /// left alone.
    case pathTaken(String)
    /// The link at the path could not be made (e.g. its folder is missing or not writable).
    case link(path: String, SystemCallError)
    /// The pseudo-terminal was closed before the write, or while it waited.
    case closed
    /// The writing task was cancelled before the bytes left.
    case cancelled

    public var description: String {
        switch self {
        case .system(let error):
            return "could not make a pseudo-terminal: \(error). Check that /dev/ptmx and /dev/pts exist (devpts is mounted)."
        case .pathTaken(let path):
            return "\(path) exists and is not a symbolic link; only a link is replaced. Remove it or choose another path."
        case .link(let path, let error):
            return "could not make the link \(path): \(error). Check that its folder exists and is writable."
        case .closed:
            return "the pseudo-terminal is closed."
        case .cancelled:
            return "the write was cancelled before the bytes left."
        }
    }
}
