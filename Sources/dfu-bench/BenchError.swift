/// Why the benchmark could not run, or why a run failed. Every case says what to do.
enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case imageUnreadable(path: String, reason: String)
    case setup(String)
    case runFailed(profile: String, run: Int, reason: String)
    /// The runs completed but a part missed its target (the report says which and by how much).
    case targetMissed([String])

    var description: String {
        switch self {
        case .usage(let message):
            // Two lines, as dfu's usage errors.
            return "\(message)\nsee 'dfu-bench --help'"
        case .imageUnreadable(let path, let reason):
            return "cannot read \(path): \(reason). Run from the repository root, or pass --image/--previous-image."
        case .setup(let message):
            return "cannot set up the benchmark: \(message)"
        case .runFailed(let profile, let run, let reason):
            return "run \(run) on \(profile) failed: \(reason)"
        case .targetMissed(let misses):
            return misses.joined(separator: "; ")
        }
    }

    /// 2 for a bad command line, 1 for everything else.
    var exitCode: Int32 {
        if case .usage = self { return 2 }
        return 1
    }
}
