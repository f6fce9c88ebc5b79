/// What a process-death scenario kills, and how the update is then finished: the `dfu` binary
/// runs as a child process against a device model served in the campaign (`--link process`).
enum ProcessDeath: Sendable, Equatable {
    /// How a killed `dfu flash` is taken up again.
    enum Finish: Sendable, Equatable {
        /// The same `dfu flash` command again.
        case rerun
        /// `dfu resume`, from the journal the killed run kept.
        case resume
    }

    /// One `dfu flash`, killed at a `KillPoint` drawn from the run's seed, then finished.
    case flash(Finish)
    /// One `dfu batch` over `devices` devices, `parallel` at a time, killed once at least one
    /// device is done and another is mid-transfer (the rest not started), then run again.
    case batch(devices: Int, parallel: Int)
}
