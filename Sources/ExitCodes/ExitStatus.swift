/// The process exit codes dfu documents (README, "Exit codes"). Scripts depend on these numbers:
/// never renumber a case.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case internalError = 1
    case usage = 2
    case imageInvalid = 3
    case preconditionNotMet = 4
    case deviceUnreachable = 5
    case transferInterrupted = 6
    case deviceRejected = 7
    case postRebootCheckFailed = 8
    case authenticationFailed = 9
    case interrupted = 130
}
