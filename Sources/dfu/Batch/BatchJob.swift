import DFUCore
import ExitCodes

/// One row of a batch, ready to run: its checked `dfu flash` words (the adapter is given when it
/// starts), how output names it, and what is known of its file and of an earlier run.
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
    /// `smp` or `nordic`, from the file's content; nil when it could not be read (the run says why).
    var protocolName: String?
    /// The file's SHA-256 (hex), to tell an update already done from one to do.
    var imageSHA256: String?
    var earlier: EarlierRun?

    var imageName: String { FlashCommand.fileName(row.image) }

    /// The report of a job that did not run to its end: never started, or decided without a run.
    func report(_ result: BatchDeviceReport.Result, status: ExitStatus, stage: String, error: String?,
                versionBefore: String? = nil, versionAfter: String? = nil, duration: Duration = .zero) -> BatchDeviceReport {
        BatchDeviceReport(line: row.line, device: name, fullDevice: fullName, image: imageName, protocolName: protocolName,
                          result: result, exitStatus: status, stage: stage, versionBefore: versionBefore,
                          versionAfter: versionAfter, duration: duration, bytes: 0, error: error, extras: row.extras)
    }
}
