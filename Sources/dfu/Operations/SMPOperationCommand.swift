import ArgumentParsing
import DFUCore
import ExitCodes

/// An everyday SMP command (`dfu image …`, `dfu reset`, `dfu echo`): its own arguments, the options
/// every one of them takes (`SMPOperationOptions`), one operation on the device, and how its result
/// reads. The run and its output are written once, here.
protocol SMPOperationCommand: DFUCommand {
    var operation: SMPOperationOptions { get }
}

extension SMPOperationCommand {
    /// The checks every one of them makes; a command with more calls `operation.validate()` first.
    func validate() throws(UsageError) {
        try operation.validate()
    }

    /// Runs `request` on the device and ends as every one of them ends (`SMPOperationOutput`): `text`
    /// for people, `fields` in the JSON result.
    func perform<Value: Sendable>(_ console: Console,
                                  _ request: @escaping @Sendable (SMPOperator) async throws(DFUError) -> Value,
                                  text: (Value) -> String,
                                  fields: (Value) -> [JSONField]) async throws(DFUError) -> ExitStatus {
        let outcome = await operation.run.run(console, request)
        return try SMPOperationOutput.finish(outcome, command: Self.name, json: operation.common.json, console: console,
                                             text: text, fields: fields)
    }

    /// The discussion's paragraph on devices and the exit statuses every one of them has, around
    /// the command's own (`extra`, e.g. 8 for a reset that waits).
    static func devicesParagraph() -> String {
        """
        Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu scan' \
        lists them; --passkey for a device that requires pairing), sim[:KEY=VALUE,…] for the \
        built-in virtual device (a new one for each run: use 'dfu sim --serve' and udp:HOST:PORT \
        for a device that keeps its state between commands), udp:HOST:PORT for an SMP server over \
        UDP. A Nordic Secure DFU device has no SMP: it is refused before anything is sent (exit 4).
        """
    }

    static func exitStatuses(_ extra: [(code: Int, meaning: String)] = []) -> String {
        var rows: [(code: Int, meaning: String)] = [
            (0, "done"), (1, "internal error (a bug in dfu)"), (2, "usage error"),
            (4, "the device is a Nordic Secure DFU device (no SMP): nothing was sent"),
            (5, "the device cannot be reached, or BlueZ or the adapter cannot be used"),
            (7, "the device refused the request or broke the protocol"),
            (9, "the device requires an authenticated link that could not be set up"),
            (130, "interrupted by SIGINT or SIGTERM"),
        ]
        rows += extra
        rows.sort { $0.code < $1.code }
        let lines = rows.map { row in
            "  " + String(row.code) + String(repeating: " ", count: max(1, 5 - String(row.code).count)) + row.meaning
        }
        return "Exit status:\n" + lines.joined(separator: "\n")
    }
}
