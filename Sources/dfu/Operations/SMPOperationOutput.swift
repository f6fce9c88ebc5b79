import DFUCore
import ExitCodes

/// How the everyday SMP operations end on the console: text for people (the error as
/// `dfu: error: …` by the CLI), or one JSON `result` object whose first fields are those of every
/// result (`command`, `device`, `ok`, `exit_code`) and whose last is `error`; on failure only those
/// (as `dfu info` leaves out what it could not read). An interrupted run prints `dfu: interrupted`.
enum SMPOperationOutput {
    static func finish<Value: Sendable>(_ outcome: SMPOperationRun.Outcome<Value>, command: String, json: Bool,
                                        console: Console, text: (Value) -> String,
                                        fields: (Value) -> [JSONField]) throws(DFUError) -> ExitStatus {
        if outcome.interrupted {
            console.error(GracefulInterruption.message)
            return .interrupted
        }
        if json {
            console.out(object(outcome, command: command, fields: fields).encoded)
            if case .failure(let error) = outcome.result { return error.exitStatus }
            return .success
        }
        switch outcome.result {
        case .failure(let error): throw error
        case .success(let value):
            console.out(text(value))
            return .success
        }
    }

    static func object<Value: Sendable>(_ outcome: SMPOperationRun.Outcome<Value>, command: String,
                                        fields: (Value) -> [JSONField]) -> JSONValue {
        let status: ExitStatus
        switch outcome.result {
        case .success: status = .success
        case .failure(let error): status = error.exitStatus
        }
        var all = JSONEvent.head("result") + [
            JSONField("command", .string(command)),
            JSONField("device", .string(outcome.identity)),
            JSONField("ok", .bool(status == .success)),
            JSONField("exit_code", .int(Int(status.rawValue))),
        ]
        switch outcome.result {
        case .success(let value): all += fields(value) + [JSONField("error", .null)]
        case .failure(let error): all.append(JSONField("error", .string(error.description)))
        }
        return .object(all)
    }
}
