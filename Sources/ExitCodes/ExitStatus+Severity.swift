extension ExitStatus {
    /// The order in which a run over several devices (`dfu batch`, `dfu resume`) picks its one exit
    /// status, most severe first: the run was stopped; a bug; a mistake that fails every device
    /// (usage, the file or the key); a device left on an image it rolled back to; then failures of
    /// one device, the ones a retry is least likely to fix first. README, "Exit codes".
    public static let severityOrder: [ExitStatus] = [
        .interrupted, .internalError, .usage, .imageInvalid, .postRebootCheckFailed, .deviceRejected,
        .authenticationFailed, .preconditionNotMet, .transferInterrupted, .deviceUnreachable, .success,
    ]

    /// The status a run over several devices ends with: success only when every one succeeded,
    /// else the most severe of theirs (`severityOrder`).
    public static func mostSevere(_ statuses: some Sequence<ExitStatus>) -> ExitStatus {
        statuses.min { rank($0) < rank($1) } ?? .success
    }

    private static func rank(_ status: ExitStatus) -> Int {
        severityOrder.firstIndex(of: status) ?? 0
    }
}
