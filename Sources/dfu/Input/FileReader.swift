#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DFUCore

/// Reads a whole input file (an image) into memory, refusing what cannot be one: directories,
/// devices, and files larger than `limit`. Failures carry the system's reason ("No such file or
/// directory") and exit 3 through `DFUError.fileUnreadable`.
enum FileReader {
    /// Far above any MCUboot slot; a bigger "image" is a wrong path, not firmware.
    static let defaultLimit = 64 * 1024 * 1024

    static func readAll(path: String, limit: Int = defaultLimit) throws(DFUError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, systemReason(errno)) }
        defer { _ = close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(path, systemReason(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw unreadable(path, "it is a directory")
        default: throw unreadable(path, "it is not a regular file")
        }
        let size = Int(status.st_size)
        guard size <= limit else {
            throw unreadable(path, "it is \(size) bytes, more than the \(limit / (1024 * 1024)) MiB an image can be")
        }

        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, size - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, systemReason(errno))
            }
            if count == 0 { break }  // The file shrank while we read it: keep what is there.
            filled += count
        }
        return Array(bytes.prefix(filled))
    }

    private static func unreadable(_ path: String, _ reason: String) -> DFUError {
        .fileUnreadable(path: path, reason: reason)
    }

    private static func systemReason(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}
