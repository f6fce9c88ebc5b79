import DFUCore
import ExitCodes

/// How a run of dfu ended. `exitCode` is the one place it becomes the process exit status; `main`
/// passes that to `exit()` and nothing else in dfu exits (the signal handler aside).
enum Outcome: Sendable, Equatable {
    /// The command finished and reported its own result with this status.
    case finished(ExitStatus)
    /// The command failed with an error that has already been reported.
    case failed(DFUError)

    /// The documented exit code (README, "Exit codes"; numbers fixed in `ExitStatus`).
    var exitCode: Int32 {
        switch self {
        case .finished(let status): return status.rawValue
        case .failed(let error): return error.exitStatus.rawValue
        }
    }
}
