#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `--report FILE`: the batch's JSON lines (one per device as it ends, then the summary), written
/// as they come, so a station that loses power still has the lines of the devices that finished.
final class BatchReportFile: Sendable {
    let path: String
    private let descriptor: Int32

    /// Creates or empties `path` (0644: a report names devices and versions, nothing secret).
    init(path: String) throws(UsageError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = strerror(errno).map { String(cString: $0) } ?? "error \(errno)"
            throw UsageError("cannot write the report \(path): \(reason)")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { _ = close(descriptor) }

    func write(_ line: String) {
        Console.writeAll(line + "\n", to: descriptor)
    }
}
