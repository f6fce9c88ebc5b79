#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// Where dfu writes: results on stdout, errors and logs on stderr, each call one or more whole
/// lines written straight to the file descriptor (no buffering, so stdout and stderr stay in order).
/// A closed pipe (`dfu verify … | head -1`) ends output quietly; SIGPIPE is ignored in `main`.
struct Console: Sendable {
    /// Whether `log` prints (`--verbose`).
    var verbose = false

    static let standard = Console()

    /// The same console, printing logs when `verbose` is true.
    func verbose(_ verbose: Bool) -> Console {
        var console = self
        console.verbose = verbose
        return console
    }

    /// A result line (or lines) on stdout.
    func out(_ text: String) {
        SystemCall.writeAll(text + "\n", to: STDOUT_FILENO)
    }

    /// An error or warning line on stderr.
    func error(_ text: String) {
        SystemCall.writeAll(text + "\n", to: STDERR_FILENO)
    }

    /// A progress note on stderr, only with `--verbose`; a note the layers below start with
    /// "warning: " (they have no other way to warn) is shown always. Callers never pass key
    /// material or image bytes.
    func log(_ text: @autoclosure () -> String) {
        let text = text()
        guard verbose || text.hasPrefix("warning: ") else { return }
        error("dfu: " + text)
    }
}
