#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// The process's own stdout and stderr as a renderer's sink, written unbuffered like every other
/// `Console` line so that stdout and stderr stay in order on a shared terminal.
extension Console: TextSink {
    func emit(_ text: String, to stream: ConsoleStream) {
        SystemCall.writeAll(text, to: stream.fileDescriptor)
    }

    /// Whether `stream` is a terminal. Decides between a progress bar redrawn in place and plain
    /// lines a log file or a CI job can read.
    static func isTerminal(_ stream: ConsoleStream) -> Bool {
        isatty(stream.fileDescriptor) == 1
    }
}

private extension ConsoleStream {
    var fileDescriptor: Int32 {
        switch self {
        case .standardOutput: return STDOUT_FILENO
        case .standardError: return STDERR_FILENO
        }
    }
}
