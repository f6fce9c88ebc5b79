/// What the report says once about the process-death rows.
enum ProcessDeathReport {
    static let headerLine = "kill-*, batch-kill: the dfu binary run as a child process (over UDP to the device on 127.0.0.1; "
        + "nordic-*: a pseudo-terminal), killed with SIGKILL, then finished by the same command or dfu resume; a batch-kill run is "
        + "one batch of 6 devices; their model time includes the children's real-time start-up and waits, counted 20x"
}

extension ProcessDeathReport {
    /// The expected-failures cell of a process-death row when some `dfu resume` found nothing to
    /// resume and `dfu flash` finished the update (`ChildRunner.finish`): `no journal ×2, flash ok`.
    static func expectedText(_ summary: ScenarioSummary) -> String? {
        let count = summary.records.filter { record in
            record.attempts.dropLast().contains { $0.message == ChildAttempt.nothingToResume }
        }.count
        return count > 0 ? "no journal ×\(count), flash ok" : nil
    }
}
