import Foundation
import ReportSupport

/// What the batch part saw: the report lines `dfu batch --json` wrote and the wall time of the
/// whole command. A device's report is lost when no `device` line names its plan line.
struct BatchMeasurement: Sendable, Encodable {
    let devices: Int
    let parallel: Int
    /// Distinct plan lines named by `device` report lines; must equal `devices`.
    let reportLines: Int
    let lostReports: Int
    /// `device` lines whose result is not `ok`.
    let failures: Int
    /// From the closing `result` line: what dfu itself counted (nil if the line is missing).
    let summaryDevices: Int?
    let summarySucceeded: Int?
    let summaryFailed: Int?
    let exitStatus: Int32
    let wallSeconds: Double
    /// Wall time / devices: what one more device costs at this parallelism.
    let secondsPerDevice: Double
    /// The median of the devices' own durations, as dfu reported them.
    let medianDeviceSeconds: Double

    var passed: Bool { lostReports == 0 && failures == 0 && exitStatus == 0 && summaryDevices == devices }

    init(devices: Int, parallel: Int, exitStatus: Int32, wallSeconds: Double, output: String) {
        self.devices = devices
        self.parallel = parallel
        self.exitStatus = exitStatus
        self.wallSeconds = wallSeconds
        secondsPerDevice = devices > 0 ? wallSeconds / Double(devices) : 0
        let report = BatchReportLines(output)
        let lines = Set(report.devices.compactMap(\.line))
        let durations = report.devices.compactMap(\.duration)
        reportLines = lines.count
        lostReports = max(0, devices - lines.count)
        failures = report.devices.filter { !$0.ok }.count
        summaryDevices = report.summaryDevices
        summarySucceeded = report.summarySucceeded
        summaryFailed = report.summaryFailed
        medianDeviceSeconds = Median.of(durations) ?? 0
    }
}
