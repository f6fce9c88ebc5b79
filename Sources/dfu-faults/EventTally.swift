import DFUCore
import Synchronization

/// Counts what the campaign needs from an update's events as they come. A class behind a mutex
/// because the engine's `emit` is a `@Sendable` closure called from its own tasks, and the hang
/// guard must be able to read the tally of an update that never returns.
final class EventTally: Sendable {
    private struct Counts {
        var resumes = 0
        var firstAcknowledged: Int?
        var lastStage = "not started"
    }

    private let counts = Mutex(Counts())

    func note(_ event: UpdateEvent) {
        counts.withLock { counts in
            switch event {
            case .resumed:
                counts.resumes += 1
            case .progress(let progress):
                if counts.firstAcknowledged == nil { counts.firstAcknowledged = progress.acknowledged }
            case .stageStarted(let stage):
                counts.lastStage = stage.rawValue
            default:
                break
            }
        }
    }

    var resumes: Int { counts.withLock { $0.resumes } }
    var firstAcknowledged: Int? { counts.withLock { $0.firstAcknowledged } }
    var lastStage: String { counts.withLock { $0.lastStage } }
}
