import ExitCodes
import Foundation

/// One `dfu` child's run as the campaign records an update (`AttemptRecord`): its exit, and what
/// its NDJSON lines say (docs/json-events.md): `resumed` events, the first `progress` line's
/// `resumed_from` (above 0: the upload picked up what the device held), the last stage started and
/// the `result` line's error.
enum ChildAttempt {
    static func record(_ ended: DFUChild.Ended, index: Int) -> AttemptRecord {
        let events = ended.lines.compactMap(fields)
        let resumes = events.filter { $0["event"] as? String == "resumed" }.count
        let resumedFrom = events.first { $0["event"] as? String == "progress" }?["resumed_from"] as? Int
        // `dfu batch` writes no stage lines.
        let lastStage = events.last { $0["event"] as? String == "stage" && $0["status"] as? String == "started" }?["stage"]
            as? String ?? noStage
        let result = events.last { $0["event"] as? String == "result" }
        if ended.killedByUs {
            return AttemptRecord(index: index, exitStatus: .interrupted,
                                 message: "killed (SIGKILL)" + (lastStage == noStage ? "" : " in \(lastStage)"),
                                 resumes: resumes, firstAcknowledged: resumedFrom, hung: false, lastStage: lastStage, killed: true)
        }
        if ended.hung {
            return AttemptRecord(index: index, exitStatus: .internalError, message: "hung", resumes: resumes,
                                 firstAcknowledged: resumedFrom, hung: true, lastStage: lastStage)
        }
        let status: ExitStatus
        var message = result?["error"] as? String ?? ""
        if let code = ended.exitCode, let known = ExitStatus(rawValue: code) {
            status = known
        } else {
            // A crash (a trap is SIGILL or SIGTRAP) or a code dfu does not document: never expected.
            status = .internalError
            let how = ended.signal.map { "ended by signal \($0)" } ?? "exit \(ended.exitCode ?? -1), not a documented code"
            let stderr = ended.stderr.split(separator: "\n").suffix(3).joined(separator: " | ")
            message = how + (stderr.isEmpty ? "" : ": " + stderr)
        }
        if status == .success, result?["command"] as? String == "resume", result?["resumed"] as? Int == 0 {
            message = nothingToResume
        }
        return AttemptRecord(index: index, exitStatus: status, message: message, resumes: resumes,
                             firstAcknowledged: resumedFrom, hung: false, lastStage: lastStage)
    }

    /// The message of a `dfu resume` that exited 0 with nothing to resume.
    static let nothingToResume = "dfu resume found no unfinished update"
    /// The last stage of a run that wrote no stage line.
    static let noStage = "-"

    /// One NDJSON line's object; nil for a line that is not one.
    static func fields(_ line: String) -> [String: Any]? {
        guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) else { return nil }
        return object as? [String: Any]
    }
}
