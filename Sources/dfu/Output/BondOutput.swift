import BlueZTransport
import DFUCore
import ExitCodes
import Transport

/// What `dfu pair` and `dfu unpair` print: one line for people, one JSON object for scripts
/// (docs/json-events.md). Never a passkey.
enum BondOutput {
    /// Prints `result` as `--json` asks (one JSON line, the status returned) or as text (a failure
    /// thrown, for the CLI's one error line).
    static func finish<Value>(_ result: Result<Value, DFUError>, json: Bool, console: Console,
                              jsonLine: (Result<Value, DFUError>) -> JSONValue,
                              text: (Value) -> String) throws(DFUError) -> ExitStatus {
        if json {
            console.out(jsonLine(result).encoded)
            if case .failure(let error) = result { return error.exitStatus }
            return .success
        }
        switch result {
        case .failure(let error): throw error
        case .success(let value):
            console.out(text(value))
            return .success
        }
    }

    static func pairText(device: String, _ security: LinkSecurity) -> String {
        guard security.pairedNow else {
            if security.paired { return "\(device) is already bonded; nothing to do ('dfu unpair' forgets the bond)" }
            return "\(device) did not pair"
        }
        return "paired with \(device): " + InfoOutput.securityDescription(security)
    }

    static func pairJSON(device: String, _ result: Result<LinkSecurity, DFUError>) -> JSONValue {
        var fields = header(PairCommand.name, device: device, result.map { _ in () })
        switch result {
        case .failure(let error):
            fields.append(JSONField("error", .string(error.description)))
        case .success(let security):
            fields += [
                JSONField("paired_now", .bool(security.pairedNow)),
                JSONField("bonded", .bool(security.bonded)),
                JSONField("authenticated", security.authenticated.map { .bool($0) } ?? .null),
                JSONField("error", .null),
            ]
        }
        return .object(fields)
    }

    static func unpairText(device: String, _ forgotten: BlueZCentral.Forgotten) -> String {
        switch forgotten {
        case .removed(_, let wasPaired):
            return wasPaired ? "forgot \(device): its bond is removed from bluetoothd"
                : "removed \(device) from bluetoothd (it was not bonded)"
        case .unknown:
            return "bluetoothd knows no device \(device) on this adapter; nothing to forget"
        }
    }

    static func unpairJSON(device: String, _ result: Result<BlueZCentral.Forgotten, DFUError>) -> JSONValue {
        var fields = header(UnpairCommand.name, device: device, result.map { _ in () })
        switch result {
        case .failure(let error):
            fields.append(JSONField("error", .string(error.description)))
        case .success(let forgotten):
            let (known, wasPaired): (Bool, Bool)
            switch forgotten {
            case .removed(_, let paired): (known, wasPaired) = (true, paired)
            case .unknown: (known, wasPaired) = (false, false)
            }
            fields += [JSONField("known", .bool(known)), JSONField("was_bonded", .bool(wasPaired)), JSONField("error", .null)]
        }
        return .object(fields)
    }

    private static func header(_ command: String, device: String, _ result: Result<Void, DFUError>) -> [JSONField] {
        let status: ExitStatus
        switch result {
        case .success: status = .success
        case .failure(let error): status = error.exitStatus
        }
        return JSONEvent.head("result") + [
            JSONField("command", .string(command)),
            JSONField("device", .string(device)),
            JSONField("ok", .bool(status == .success)),
            JSONField("exit_code", .int(Int(status.rawValue))),
        ]
    }
}
