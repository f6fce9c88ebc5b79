import DFUCore
import ExitCodes

/// What one `UpdateEngine` run of a scenario run did, from its result and events.
struct AttemptRecord: Sendable {
    /// 1 for the first update of the run, 2 for the rerun.
    let index: Int
    /// The documented exit status `dfu flash` would have ended with (`.success` for exit 0).
    let exitStatus: ExitStatus
    /// The error's message, or "" on success.
    let message: String
    /// `.resumed` events: the link came back and the upload went on within this update.
    let resumes: Int
    /// The device's offset in the first upload reply, when any: above 0 on a rerun means the device
    /// kept the earlier session and the upload picked it up.
    let firstAcknowledged: Int?
    /// The hang guard fired: the update was abandoned still running.
    let hung: Bool
    /// The last stage started, for a hang's report.
    let lastStage: String
    /// The campaign killed this update's `dfu` process (SIGKILL, a process-death scenario): it has
    /// no exit status, and must be finished by a later update.
    var killed = false
}
