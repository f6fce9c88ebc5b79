import DFUCore
import ExitCodes

/// One row of a batch, ready to run: its checked row (made a request when it starts, with the
/// adapter it is given), how output names it, and what is known of its file and of an earlier run.
struct BatchJob: Sendable {
    /// An earlier run finished this very update (same device, same file content): its journal says
    /// done. Not trusted alone: the device is asked before it is skipped (`BatchDoneCheck`).
    struct EarlierRun: Sendable, Equatable {
        /// The version the device reported when that run ended, if it did.
        var versionAfter: String?
    }

    var row: BatchRow
    /// How the terminal names the device (a Bluetooth address shortened unless `--full-addresses`).
    var name: String
    /// How records (`--json`, `--report`) name the device: in full, as the plan wrote it (an
    /// address in its canonical form), whatever `--full-addresses` says.
    var fullName: String
    /// The device as its journal names it (`DeviceSpec.description` of the `--device` it runs with).
    var identity: String
    /// What the file held when the batch read it (its protocol, and its SHA-256 to tell an update
    /// already done from one to do); nil when it could not be read (the run says why).
    var file: UpdateFileFacts?
    var earlier: EarlierRun?

    var imageName: String { FlashCommand.fileName(row.image) }
    var protocolName: UpdateProtocolName? { file?.protocolName }

    /// The report of a job that did not run to its end: never started, or decided without a run.
    func report(_ result: BatchDeviceReport.Result, status: ExitStatus, stage: String, error: String?,
                versionBefore: String? = nil, versionAfter: String? = nil, duration: Duration = .zero) -> BatchDeviceReport {
        BatchDeviceReport(line: row.line, device: name, fullDevice: fullName, image: imageName, protocolName: protocolName?.rawValue,
                          result: result, exitStatus: status, stage: stage, versionBefore: versionBefore,
                          versionAfter: versionAfter, duration: duration, bytes: 0, error: error, extras: row.extras)
    }
}
