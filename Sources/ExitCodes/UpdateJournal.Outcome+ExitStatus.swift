import DFUCore

extension UpdateJournal.Outcome {
    /// The exit code the run that ended so gave (`dfu resume --list`'s LAST RESULT and `last_exit_code`).
    public var exitStatus: ExitStatus {
        switch result {
        case .succeeded: return .success
        case .interrupted: return .interrupted
        case .failed: return failure?.exitStatus ?? .internalError
        }
    }
}
