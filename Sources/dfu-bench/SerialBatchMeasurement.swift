import ReportSupport

/// What the serial batch saw: per device, the image's bytes over the device's own run as dfu
/// timed it (connect, MCUmgr parameters, image list, upload); together, every device's bytes over
/// the whole command's wall time, against `devices` lines' ceiling.
struct SerialBatchMeasurement: Sendable, Encodable {
    struct Device: Sendable, Encodable {
        let line: Int
        let ok: Bool
        let seconds: Double
        let goodput: Double
    }

    let devices: Int
    let baud: Int
    let image: String
    let imageBytes: Int
    /// One line's ceiling after the console framing, bytes/s.
    let ceiling: Double
    let exitStatus: Int32
    let wallSeconds: Double
    let perDevice: [Device]
    /// Image bytes every device reported sent, over the wall time.
    let aggregateGoodput: Double
    /// Why a device failed (its report's error), or dfu's last lines on stderr when a report is
    /// missing; nil when every device is ok.
    let problem: String?

    var succeeded: Int { perDevice.filter(\.ok).count }

    var passed: Bool { exitStatus == 0 && perDevice.count == devices && succeeded == devices }

    /// The aggregate against every line's ceiling together.
    var ratio: Double { ceiling > 0 ? aggregateGoodput / (ceiling * Double(devices)) : 0 }

    var medianGoodput: Double { Median.of(perDevice.map(\.goodput)) ?? 0 }

    var slowestGoodput: Double { perDevice.map(\.goodput).min() ?? 0 }

    init(devices: Int, baud: Int, image: String, imageBytes: Int, ceiling: Double, exitStatus: Int32,
         wallSeconds: Double, output: String, errors: String) {
        self.devices = devices
        self.baud = baud
        self.image = image
        self.imageBytes = imageBytes
        self.ceiling = ceiling
        self.exitStatus = exitStatus
        self.wallSeconds = wallSeconds
        let report = BatchReportLines(output)
        perDevice = report.devices.map { device in
            let seconds = device.duration ?? 0
            return Device(line: device.line ?? 0, ok: device.ok, seconds: seconds,
                          goodput: seconds > 0 ? Double(device.bytes ?? 0) / seconds : 0)
        }.sorted { $0.line < $1.line }
        let sent = report.devices.compactMap(\.bytes).reduce(0, +)
        aggregateGoodput = wallSeconds > 0 ? Double(sent) / wallSeconds : 0
        let failed = exitStatus != 0 || report.devices.count != devices || report.devices.contains { !$0.ok }
        problem = failed
            ? report.devices.lazy.compactMap(\.error).first ?? errors.split(separator: "\n").suffix(3).joined(separator: " | ")
            : nil
    }
}
