#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// Why a serial port could not be opened or set up. Each `description` says what happened and what
/// to do. `SerialConnector` waits out `.missing` and `.busy` (a board that resets comes back, a
/// prober lets go) and reports the others at once.
public enum SerialPortError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No device at the path (`ENOENT`, or `ENODEV`/`ENXIO`: the node is there but its device is gone).
    case missing(path: String)
    /// Another process holds the port: `open` saw `EBUSY` (its holder set `TIOCEXCL`), or `flock`
    /// found its lock taken (another dfu).
    case busy(path: String)
    /// The user may not open the device node (`EACCES`/`EPERM`); `group` owns the node, when known.
    case permissionDenied(path: String, group: String?)
    /// The path is no terminal (`ENOTTY` from `tcgetattr`): a file, `/dev/null`, a directory's link.
    case notATerminal(path: String)
    /// termios cannot set this speed; `nearest` are the supported speeds either side of it.
    case unsupportedBaud(Int, nearest: [Int])
    /// Any other refusal of the system, with the call and its errno.
    case system(path: String, SystemCallError)

    /// Where `ls` shows the USB serial ports by a stable name.
    static let listingHint = "`ls /dev/serial/by-id` lists the USB serial ports this computer sees"

    /// What a failed call on `path` means: a pure function of the errno, so it can be checked
    /// without hardware (root ignores permissions). `group` is the node's group for `EACCES`/`EPERM`.
    public static func classify(_ error: SystemCallError, path: String, group: String? = nil) -> SerialPortError {
        switch error.code {
        case ENOENT, ENOTDIR, ENODEV, ENXIO: return .missing(path: path)
        case EBUSY, EAGAIN: return .busy(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path, group: group)
        case ENOTTY: return .notATerminal(path: path)
        default: return .system(path: path, error)
        }
    }

    /// Whether waiting may help: the board may come back, the other holder may let go.
    public var isTransient: Bool {
        switch self {
        case .missing, .busy: return true
        case .permissionDenied, .notATerminal, .unsupportedBaud, .system: return false
        }
    }

    public var description: String {
        switch self {
        case .missing(let path):
            return "there is no serial port \(path). Check that the board is plugged in and powered; \(Self.listingHint)."
        case .busy(let path):
            return "the serial port \(path) is in use by another program (a terminal such as minicom or screen, "
                + "another dfu, or ModemManager probing a new port). `fuser \(path)` or `lsof \(path)` names it; "
                + "close it and retry."
        case .permissionDenied(let path, let group?) where group != "root":
            return "permission denied opening \(path): the device belongs to the group '\(group)'. Add yourself to it "
                + "with `sudo usermod -aG \(group) $USER`, then log out and in again (the group applies to new logins)."
        case .permissionDenied(let path, _):
            return "permission denied opening \(path). Add yourself to the group that owns it (`ls -l \(path)` shows it; "
                + "typically dialout) with `sudo usermod -aG dialout $USER`, then log out and in again."
        case .notATerminal(let path):
            return "\(path) is not a serial port (not a terminal device). Give the board's tty, e.g. /dev/ttyACM0, "
                + "or its link in /dev/serial/by-id; \(Self.listingHint)."
        case .unsupportedBaud(let baud, let nearest):
            let choices = nearest.map(String.init).joined(separator: " or ")
            return "\(baud) baud is not a speed a serial port can be set to; the nearest supported "
                + (nearest.count == 1 ? "is " : "are ") + "\(choices)."
        case .system(let path, let error):
            return "the serial port \(path) could not be used: \(error). Unplug and replug the board, then retry."
        }
    }
}
