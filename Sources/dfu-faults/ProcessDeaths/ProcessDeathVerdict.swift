/// The verdict on a process-death run: the first `kills` `dfu`s must have been killed (a run whose
/// `dfu` ended by itself first never reached its kill point, which is unexpected); what finished
/// the update after them is judged as the scenario's expectation judges a whole update.
enum ProcessDeathVerdict {
    static func judge(_ attempts: [AttemptRecord], kills: Int = 1, expectation: Expectation, device: DeviceVerdict) -> RunOutcome {
        guard !attempts.isEmpty else { return .unexpected("no dfu ran") }
        for (index, attempt) in attempts.prefix(kills).enumerated() {
            let which = index == 0 ? "the first dfu" : "dfu \(index + 1)"
            if attempt.hung { return .unexpected("\(which) still ran after the hang guard (\(attempt.lastStage))") }
            guard attempt.killed else {
                return .unexpected("\(which) ended by itself (exit \(attempt.exitStatus.rawValue)) before its kill point"
                    + (attempt.message.isEmpty ? "" : ": \(attempt.message)"))
            }
        }
        guard attempts.count > kills else { return .unexpected("nothing ran after the kill") }
        let outcome = expectation.judge(Array(attempts.dropFirst(kills)), bootsAfterFirst: 0, device: device)
        if let reason = outcome.unexpectedReason {
            return .unexpected("killed in " + attempts.prefix(kills).map(\.lastStage).joined(separator: ", then in ") + ", then \(reason)")
        }
        return outcome
    }

    /// ` in transfer`: the stage the killed `dfu` had started last, for the faults column.
    static func stage(_ attempts: [AttemptRecord]) -> String {
        stage(of: attempts.first)
    }

    /// ` in transfer` for a killed attempt that wrote stage lines, else nothing.
    static func stage(of attempt: AttemptRecord?) -> String {
        guard let attempt, attempt.killed, attempt.lastStage != ChildAttempt.noStage else { return "" }
        return " in \(attempt.lastStage)"
    }

    /// The faults column of a run with `points` kills: `SIGKILL@43.21% in transfer`, then for each
    /// later kill `, then SIGKILL@12.00% of the rest in transfer` (one that did not come: `, then
    /// SIGKILL@uploaded (not reached)`).
    static func kills(_ points: [KillPoint], _ attempts: [AttemptRecord]) -> String {
        points.enumerated().map { index, point in
            var text = point.text
            if index > 0, case .transfer = point { text += " of the rest" }
            let attempt = attempts.indices.contains(index) ? attempts[index] : nil
            return text + (attempt?.killed == true ? stage(of: attempt) : (attempt == nil ? "" : " (not reached)"))
        }.joined(separator: ", then ")
    }
}
