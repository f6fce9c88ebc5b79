#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system call the kernel refused: which call, and the `errno` it set, by name and by text.
/// Built by `SystemCall` at the call, so `errno` is read before anything else can change it.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function, e.g. `"sendto"`.
    public let call: String
    /// The `errno` value.
    public let code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The symbolic name (`ECONNREFUSED`), or `errno N` for one this table does not know.
    public var name: String { Self.names[code] ?? "errno \(code)" }

    /// The C library's sentence for the code (`Connection refused`). glibc's `strerror` returns
    /// static text for known codes and a thread-local buffer for others, so it is safe here.
    public var text: String {
        guard let message = strerror(code) else { return "unknown error" }
        return String(cString: message)
    }

    public var description: String { "\(call): \(name) (\(text))" }

    /// `ECONNREFUSED`: on a UDP socket, an ICMP port-unreachable answered an earlier datagram.
    public var isConnectionRefused: Bool { code == ECONNREFUSED }

    /// `EBADF`, for a descriptor `poll` reports as not open.
    static let badDescriptor = EBADF

    /// An ICMP error about one earlier destination (refused, unreachable, reset), which a socket
    /// serving many senders outlives.
    var concernsOneDestination: Bool { [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ECONNRESET].contains(code) }

    /// The codes our UDP and Unix sockets, ttys and device nodes meet; others still print, by number.
    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EIO: "EIO", ENXIO: "ENXIO", EBUSY: "EBUSY", EEXIST: "EEXIST",
        ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", ENOTTY: "ENOTTY", EROFS: "EROFS", ELOOP: "ELOOP",
        ENAMETOOLONG: "ENAMETOOLONG", EINTR: "EINTR", EBADF: "EBADF", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM",
        EACCES: "EACCES", EFAULT: "EFAULT", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE",
        EPIPE: "EPIPE", ENOTSOCK: "ENOTSOCK", EDESTADDRREQ: "EDESTADDRREQ", EMSGSIZE: "EMSGSIZE",
        EPROTONOSUPPORT: "EPROTONOSUPPORT", EOPNOTSUPP: "EOPNOTSUPP", EAFNOSUPPORT: "EAFNOSUPPORT",
        EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL", ENETDOWN: "ENETDOWN",
        ENETUNREACH: "ENETUNREACH", ECONNRESET: "ECONNRESET", ENOBUFS: "ENOBUFS", EISCONN: "EISCONN",
        ENOTCONN: "ENOTCONN", ETIMEDOUT: "ETIMEDOUT", ECONNREFUSED: "ECONNREFUSED", EHOSTDOWN: "EHOSTDOWN",
        EHOSTUNREACH: "EHOSTUNREACH",
    ]
}
