import DFUCore
import ExitCodes
import Harness

/// One update under the hang guard, for either protocol's runs.
enum UpdateAttempt {
    static func run(_ engine: UpdateEngine, index: Int, hangGuard: Duration) async -> AttemptRecord {
        let tally = EventTally()
        let result = await HangGuard.run(limit: hangGuard) {
            await engine.run { tally.note($0) }
        }
        guard let result else {
            return AttemptRecord(index: index, exitStatus: .internalError, message: "hung", resumes: tally.resumes,
                                 firstAcknowledged: tally.firstAcknowledged, hung: true, lastStage: tally.lastStage)
        }
        let (status, message): (ExitStatus, String)
        switch result {
        case .success: (status, message) = (.success, "")
        case .failure(let error): (status, message) = (error.exitStatus, error.description)
        }
        return AttemptRecord(index: index, exitStatus: status, message: message, resumes: tally.resumes,
                             firstAcknowledged: tally.firstAcknowledged, hung: false, lastStage: tally.lastStage)
    }
}
