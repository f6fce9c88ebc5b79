/// The command line was wrong: unknown option or command, missing or malformed value. Reported on
/// stderr as one line plus a pointer to the right help, and always exits 2.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
