import ArgumentParsing
import DFUCore
import Transport

/// `--connect-timeout SECONDS` for the commands that connect and read or pair (`info`, `pair`);
/// `flash` has it among its other waits (`FlashTimeouts`).
struct ConnectTimeoutOption: ParsableArguments {
    @Option(valueName: "SECONDS", help: "Seconds to connect, retries included.")
    var connectTimeout = UpdateOptions.Deadlines().connect.seconds

    init() {}

    /// Called from the command's `validate()`.
    func validate() throws(UsageError) {
        guard connectTimeout > 0, connectTimeout <= FlashTimeouts.maximum else {
            throw UsageError("--connect-timeout must be more than 0 and at most \(Int(FlashTimeouts.maximum)) seconds")
        }
    }

    var duration: Duration { .milliseconds(Int((connectTimeout * 1000).rounded())) }
}
