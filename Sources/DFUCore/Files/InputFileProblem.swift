#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// Why a file given on the command line (an image, a key, a plan) could not be read, in dfu's
/// words rather than the C library's or Foundation's: each `description` completes "cannot read
/// PATH: …".
public enum InputFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case missing
    case permissionDenied
    case directory
    /// A device, a pipe or a socket: what it is.
    case notAFile(String)
    /// A part of the path before the last is a file, not a directory.
    case pathThroughFile
    /// More than the caller takes: `size` bytes, `limit` at most, `what` names the expected file
    /// ("an image").
    case tooLarge(size: Int, limit: Int, what: String)
    /// A rarer refusal: the call and its `errno`.
    case system(SystemCallError)

    /// The problem `errno` names for a failed `call` on the file.
    public init(call: String, errno code: Int32) {
        switch code {
        case ENOENT: self = .missing
        case EACCES, EPERM: self = .permissionDenied
        case EISDIR: self = .directory
        case ENOTDIR: self = .pathThroughFile
        default: self = .system(SystemCallError(call: call, code: code))
        }
    }

    public var description: String {
        switch self {
        case .missing:
            return "no such file"
        case .permissionDenied:
            return "permission denied"
        case .directory:
            return "it is a directory"
        case .notAFile(let kind):
            return "it is \(kind), not a file"
        case .pathThroughFile:
            return "a part of the path is a file, not a directory"
        case .tooLarge(let size, let limit, let what):
            return "it is \(size) bytes, more than the \(Self.bytes(limit)) \(what) can be"
        case .system(let error):
            switch error.code {
            case ELOOP: return "its path has too many symbolic links (a loop?)"
            case ENAMETOOLONG: return "its path is too long"
            case EIO: return "the disk reported an input/output error"
            case EMFILE, ENFILE: return "too many files are open"
            default: return "the system refused (\(error))"
            }
        }
    }

    /// `64 MiB`, `64 KiB`, `100 bytes`.
    private static func bytes(_ count: Int) -> String {
        if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }
}
