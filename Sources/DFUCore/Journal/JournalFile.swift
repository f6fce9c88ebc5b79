#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// The system calls behind `JournalStore`: a file replaced whole (write a temporary file beside it,
/// fsync, rename over the old one, fsync the directory: POSIX rename is atomic, and the directory's
/// fsync makes the new name survive a power cut), read with a size limit, removed.
enum JournalFile {
    /// A journal is a few hundred bytes; anything this large is not one.
    static let maximumSize = 64 * 1024

    enum ReadResult {
        case missing
        case unreadable(String)
        case bytes([UInt8])
    }

    static func load(_ path: String) -> ReadResult {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            // ENOTDIR: a file stands where the journal directory should be, so no journal is there;
            // writing one says what is wrong, once.
            return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable("it cannot be opened: \(reason(errno))")
        }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unreadable(reason(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .unreadable("it is not a regular file") }
        guard Int(status.st_size) <= maximumSize else {
            return .unreadable("it is \(status.st_size) bytes, more than a journal can be")
        }
        let bytes: [UInt8]
        do {
            bytes = try SystemCall.readAll(from: descriptor, upTo: maximumSize + 1)
        } catch {
            return .unreadable(reason(error.code))
        }
        guard bytes.count <= maximumSize else { return .unreadable("it is more than a journal can be") }
        return .bytes(bytes)
    }

    static func replace(_ path: String, with bytes: [UInt8]) throws(JournalError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: reason(errno)) }
        if let code = SystemCall.writeAll(bytes, to: descriptor) {
            _ = close(descriptor)
            _ = unlink(temporary)
            throw .cannotWrite(path: path, reason: reason(code))
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let failure = reason(errno)
            _ = unlink(temporary)
            throw .cannotWrite(path: path, reason: failure)
        }
        guard rename(temporary, path) == 0 else {
            let failure = reason(errno)
            _ = unlink(temporary)
            throw .cannotWrite(path: path, reason: failure)
        }
        syncDirectory(directory.isEmpty ? "/" : directory)
    }

    static func remove(_ path: String) throws(JournalError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .cannotWrite(path: path, reason: reason(errno)) }
    }

    /// Creates `path` and its missing parents, 0700 (a journal names the user's devices and files).
    static func makeDirectory(_ path: String) throws(JournalError) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .cannotWrite(path: path, reason: "cannot create \(prefix): \(reason(errno))")
            }
        }
    }

    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    private static func reason(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}
