/// The verdict on a process-death run: the first `dfu` must have been killed (a run whose `dfu`
/// ended by itself first never reached its kill point, which is unexpected); what finished the
/// update after it is judged as the scenario's expectation judges a whole update.
enum ProcessDeathVerdict {
    static func judge(_ attempts: [AttemptRecord], expectation: Expectation, device: DeviceVerdict) -> RunOutcome {
        guard let first = attempts.first else { return .unexpected("no dfu ran") }
        if first.hung { return .unexpected("the first dfu still ran after the hang guard (\(first.lastStage))") }
        guard first.killed else {
            return .unexpected("the first dfu ended by itself (exit \(first.exitStatus.rawValue)) before its kill point"
                + (first.message.isEmpty ? "" : ": \(first.message)"))
        }
        let outcome = expectation.judge(Array(attempts.dropFirst()), bootsAfterFirst: 0, device: device)
        if let reason = outcome.unexpectedReason { return .unexpected("killed in \(first.lastStage), then \(reason)") }
        return outcome
    }

    /// ` in transfer`: the stage the killed `dfu` had started last, for the faults column.
    static func stage(_ attempts: [AttemptRecord]) -> String {
        guard let first = attempts.first, first.killed, first.lastStage != ChildAttempt.noStage else { return "" }
        return " in \(first.lastStage)"
    }
}
