#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Progress and error lines, straight to file descriptor 2: C's `stderr` is a global Swift 6 will
/// not share across tasks, and stdout must hold only the table or the JSON document.
public enum StandardError {
    public static func print(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}
