import ArgumentParsing
import DFUCore

/// What the everyday SMP commands (`dfu image …`, `dfu reset`, `dfu echo`) share with `dfu info`:
/// `--device` with the adapter flags, the pairing options, `--connect-timeout`, `--json` (one
/// result object) and `--verbose`, checked the same way. Each command declares them itself (they
/// are its options in help) and adds its own.
protocol SMPOperationCommand: DFUCommand {
    var connect: ConnectTimeoutOption { get }
    var common: CommonOptions { get }
    var target: DeviceOptions { get }
    var security: PairingOptions { get }
}

extension SMPOperationCommand {
    /// The checks every one of them makes; a command with more calls this first.
    func validateDevice() throws(UsageError) {
        try target.validate()
        try security.validate(for: try target.spec)
        try connect.validate()
    }

    func validate() throws(UsageError) {
        try validateDevice()
    }

    /// The run, with the request deadlines of an update and `--connect-timeout`.
    var operationRun: SMPOperationRun {
        var deadlines = UpdateOptions.Deadlines()
        deadlines.connect = connect.duration
        return SMPOperationRun(target: target, security: security, deadlines: deadlines, common: common)
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
