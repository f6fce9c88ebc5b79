import DFUCore
import ExitCodes

/// One update `dfu resume` took up, and how it ended.
struct ResumedUpdate {
    var journal: UpdateJournal
    var status: ExitStatus
    /// The run's result, or why the journal could not become a run (a changed file).
    var result: UpdateResult
}

extension ResumeOutput {
    /// The one line after the last run: how many were resumed, and how each ended.
    ///
    ///     dfu resume: 1 ok, 1 failed of 2: udp:127.0.0.1:1337 ok (1.1.0+0), udp:127.0.0.1:9 exit 5; exit 5
    func summary(_ updates: [ResumedUpdate]) -> ExitStatus {
        let status = ExitStatus.mostSevere(updates.map(\.status))
        if json {
            line(summaryResult(updates, status: status))
            return status
        }
        let failed = updates.count { $0.status != .success }
        let counts = "\(updates.count - failed) ok" + (failed > 0 ? ", \(failed) failed" : "") + " of \(updates.count)"
        let each = updates.map { update in
            switch update.result {
            case .success(let version): return "\(name(update.journal.device)) ok (\(version))"
            case .failure: return "\(name(update.journal.device)) exit \(update.status.rawValue)"
            }
        }
        console.out("dfu resume: \(counts): " + each.joined(separator: ", ")
                    + (status == .success ? "" : "; exit \(status.rawValue)"))
        return status
    }

    /// The `result` line of resumed runs (none: nothing to resume). The fields every `dfu resume`
    /// result has come first; `succeeded`, `failed` and `updates` (each update's device in full) follow `error`.
    func summaryResult(_ updates: [ResumedUpdate], status: ExitStatus) -> JSONValue {
        let failed = updates.count { $0.status != .success }
        let error: JSONValue = failed == 0 ? .null : .string(
            "\(failed) of \(updates.count) resumed update\(updates.count == 1 ? "" : "s") did not finish; "
            + "exit \(status.rawValue) is the most severe of theirs")
        let each: [JSONValue] = updates.map { update in
            var version: JSONValue = .null
            var message: JSONValue = .null
            switch update.result {
            case .success(let value): version = .string(value.description)
            case .failure(let failure): message = .string(failure.description)
            }
            return .object([JSONField("device", .string(update.journal.device)),
                             JSONField("image", .string(update.journal.imagePath)),
                             JSONField("ok", .bool(update.status == .success)),
                             JSONField("exit_code", .int(Int(update.status.rawValue))),
                             JSONField("version", version), JSONField("error", message)])
        }
        return UpdateEventJSON.object("result", [
            ("command", .string(ResumeCommand.name)), ("ok", .bool(status == .success)),
            ("exit_code", .int(Int(status.rawValue))), ("resumed", .int(updates.count)), ("error", error),
            ("succeeded", .int(updates.count - failed)), ("failed", .int(failed)), ("updates", .array(each)),
        ])
    }
}
