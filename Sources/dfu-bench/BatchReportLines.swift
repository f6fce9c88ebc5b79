import Foundation

/// What `dfu batch --json` wrote, read back: one `device` line per device, and the closing
/// `result` line with dfu's own count (nil fields when it is missing). Lines that are not JSON
/// objects with an `event` are skipped.
struct BatchReportLines {
    struct Device {
        /// The plan line the report names.
        let line: Int?
        let ok: Bool
        /// The device's whole run, as dfu timed it.
        let duration: Double?
        /// Image bytes sent.
        let bytes: Int?
        /// Why it failed, as dfu said.
        let error: String?
    }

    let devices: [Device]
    let summaryDevices: Int?
    let summarySucceeded: Int?
    let summaryFailed: Int?

    init(_ output: String) {
        var devices: [Device] = []
        var summary: [String: Any]?
        for text in output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let event = object["event"] as? String else { continue }
            if event == "device" {
                devices.append(Device(line: object["line"] as? Int, ok: object["result"] as? String == "ok",
                                      duration: object["duration"] as? Double, bytes: object["bytes"] as? Int,
                                      error: object["error"] as? String))
            } else if event == "result", object["command"] as? String == "batch" {
                summary = object
            }
        }
        self.devices = devices
        summaryDevices = summary?["devices"] as? Int
        summarySucceeded = summary?["succeeded"] as? Int
        summaryFailed = summary?["failed"] as? Int
    }
}
