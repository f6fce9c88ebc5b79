#if canImport(Glibc)
import Glibc
#endif

/// A unix file descriptor that crossed D-Bus (type `h`). It owns its descriptor and closes it when
/// the last reference goes: libdbus hands every received fd to us as a fresh `dup`, and appending
/// one to a message dups it again, so no descriptor is ever shared with libdbus.
///
/// Sendable: `descriptor` is immutable and only `deinit` closes it, after every user is gone.
public final class DBusUnixFD: Sendable, CustomStringConvertible {
    /// The descriptor. Valid while this object lives; do not close it yourself.
    public let descriptor: Int32

    /// Takes ownership of `descriptor` (it is closed when this object goes).
    public init(owning descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Wraps a `dup` of `descriptor`; the caller keeps its own.
    public static func duplicating(_ descriptor: Int32) throws -> DBusUnixFD {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw DBusError.invalidArgument("cannot duplicate fd \(descriptor): errno \(errno)")
        }
        return DBusUnixFD(owning: copy)
    }

    deinit {
        close(descriptor)
    }

    public var description: String { "fd \(descriptor)" }
}
