/// The command line was wrong: unknown option or command, missing or malformed value. Reported on
/// stderr as one line plus a pointer to the right help, and always exits 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
