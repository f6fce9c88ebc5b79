import DFUCore
import ExitCodes

/// One row of a batch, ready to run: its checked `dfu flash` words (the adapter is given when it
/// starts), how output names it, and what is known of its file.
struct BatchJob: Sendable {
    var row: BatchRow
    /// How output names the device.
    var name: String
    /// The device as its journal names it (`DeviceSpec.description`).
    var identity: String
    /// `smp` or `nordic`, from the file's content; nil when it could not be read (the run says why).
    var protocolName: String?
    /// The file's SHA-256 (hex), to tell an update already done from one to do.
    var imageSHA256: String?

    var imageName: String { FlashCommand.fileName(row.image) }

    /// The report of a job that did not run: already done, or never started.
    func report(_ result: BatchDeviceReport.Result, status: ExitStatus, stage: String, error: String?,
                versionAfter: String? = nil) -> BatchDeviceReport {
        BatchDeviceReport(line: row.line, device: name, image: imageName, protocolName: protocolName, result: result,
                          exitStatus: status, stage: stage, versionBefore: nil, versionAfter: versionAfter,
                          duration: .zero, bytes: 0, error: error)
    }
}
