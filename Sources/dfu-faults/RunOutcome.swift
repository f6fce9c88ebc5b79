import DFUCore
import ExitCodes

/// The verdict on one run of a scenario.
enum RunOutcome: Sendable, Equatable {
    /// Exit 0 and the new image active and confirmed on the device.
    case completed
    /// The first update failed with this status, as the scenario expects; the rerun completed.
    case completedAfterFailure(ExitStatus)
    /// Failed with this status, as the scenario expects (the device refused the image).
    case expectedFailure(ExitStatus)
    /// Anything the scenario does not allow, said in one line.
    case unexpected(String)

    var isCompleted: Bool {
        switch self {
        case .completed, .completedAfterFailure: return true
        case .expectedFailure, .unexpected: return false
        }
    }

    /// The expected failure's exit status, if this run had one.
    var expectedFailureStatus: ExitStatus? {
        switch self {
        case .completedAfterFailure(let status), .expectedFailure(let status): return status
        case .completed, .unexpected: return nil
        }
    }

    var unexpectedReason: String? {
        if case .unexpected(let reason) = self { return reason }
        return nil
    }
}
