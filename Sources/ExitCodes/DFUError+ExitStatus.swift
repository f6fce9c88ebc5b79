import DFUCore

extension DFUError {
    /// The one place that maps a failure to its documented exit code (README, "Exit codes"), for
    /// the command-line tool and the fault campaign, which reports what a user of the tool would see.
    public var exitStatus: ExitStatus { kind.exitStatus }
}

extension DFUError.Kind {
    /// The exit code of a failure of this kind (also for one a record kept: a journal's last outcome).
    public var exitStatus: ExitStatus {
        switch self {
        case .usage: return .usage
        case .image, .updateFile, .fileUnreadable, .fileChanged: return .imageInvalid
        case .precondition: return .preconditionNotMet
        case .deviceUnreachable: return .deviceUnreachable
        case .transferInterrupted: return .transferInterrupted
        case .deviceRejected: return .deviceRejected
        case .postRebootCheckFailed: return .postRebootCheckFailed
        case .authenticationFailed: return .authenticationFailed
        case .internalError: return .internalError
        }
    }
}
