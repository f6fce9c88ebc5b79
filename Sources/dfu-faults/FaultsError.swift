/// Why the campaign could not run, or why it reports failure. Every case says what to do.
enum FaultsError: Error, CustomStringConvertible {
    case usage(String)
    case fileUnreadable(path: String, reason: String)
    case setup(String)
    /// Runs ended in a way their scenario does not allow; the report above lists each one.
    case unexpectedOutcomes(Int)
    /// Runs broke invariants (and maybe others ended unexpectedly): the counts from the last line.
    case invariantViolations(violations: Int, unexpected: Int)

    var description: String {
        switch self {
        case .usage(let message):
            // Two lines, as dfu's usage errors.
            return "\(message)\nsee 'dfu-faults --help'"
        case .fileUnreadable(let path, let reason):
            return "cannot read \(path): \(reason). Run from the repository root, or pass --image/--key/--other-key."
        case .setup(let message):
            return "cannot set up the campaign: \(message)"
        case .unexpectedOutcomes(let count):
            return "\(count) run\(count == 1 ? "" : "s") ended unexpectedly (listed above with the seed that reproduces each)"
        case .invariantViolations(let violations, let unexpected):
            return "\(violations) invariant violation\(violations == 1 ? "" : "s") and \(unexpected) unexpected run\(unexpected == 1 ? "" : "s") "
                + "(listed above with the seed that reproduces each)"
        }
    }

    /// 2 for a bad command line, 1 for everything else.
    var exitCode: Int32 {
        if case .usage = self { return 2 }
        return 1
    }
}
