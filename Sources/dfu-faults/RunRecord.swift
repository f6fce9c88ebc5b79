/// One run of a scenario: how to reproduce it, what each update did, what it cost, and the verdict.
struct RunRecord: Sendable {
    /// 1-based, within its scenario.
    let run: Int
    let seed: UInt64
    /// The device's `sim:` options: `dfu flash IMAGE --key KEY --device '<this>'` replays the run.
    let device: String
    /// The faults with their `@random` points drawn (`disconnect@43.21%`), or "none".
    let faults: String
    let attempts: [AttemptRecord]
    /// Image bytes the host sent in upload requests, over every connection and update of the run.
    let uploadedBytes: Int
    let imageBytes: Int
    /// First update's start to last update's end, in the model's time.
    let modelSeconds: Double
    let wallSeconds: Double
    let outcome: RunOutcome
    /// The invariants this run broke (`InvariantCheck`), in `Invariant` order; empty when it kept all.
    let violations: [Invariant]

    /// The resend cost: bytes sent beyond one copy of the image (negative if the image never went
    /// whole, e.g. when the update was refused before the upload ended).
    var extraBytes: Int { uploadedBytes - imageBytes }

    /// Times the upload went on after an interruption: reconnections within an update, plus a rerun
    /// that picked up the session the device kept (its first reply's offset above 0).
    var resumes: Int {
        let within = attempts.map(\.resumes).reduce(0, +)
        let acrossRuns = attempts.dropFirst().filter { ($0.firstAcknowledged ?? 0) > 0 }.count
        return within + acrossRuns
    }
}
