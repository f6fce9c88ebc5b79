#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// Progress and error lines, straight to file descriptor 2: C's `stderr` is a global Swift 6 will
/// not share across tasks, and stdout must hold only the table or the JSON document.
public enum StandardError {
    public static func print(_ line: String) {
        SystemCall.writeAll(line + "\n", to: STDERR_FILENO)
    }
}
