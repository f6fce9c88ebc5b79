import Foundation

/// Reads the host's power source from Linux sysfs (`/sys/class/power_supply/*/{type,online,status,capacity}`).
/// The root is a parameter so tests can point it at a folder of their own.
public struct HostPowerReader: Sendable {
    public var root: String

    public init(root: String = "/sys/class/power_supply") { self.root = root }

    public func read() -> HostPower {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root), !names.isEmpty else {
            return .unknown
        }
        var sawMains = false
        var mainsOnline = false
        var battery: (discharging: Bool, level: Int?)?
        for name in names.sorted() {
            let type = value(name, "type")
            if type == "Mains" || type == "USB" {
                sawMains = true
                if value(name, "online") == "1" { mainsOnline = true }
            } else if type == "Battery", value(name, "scope") != "Device" {
                // scope=Device marks a peripheral's battery (a mouse), not the computer's.
                let status = value(name, "status")
                let level = value(name, "capacity").flatMap { Int($0) }
                battery = (status == "Discharging", level)
            }
        }
        if mainsOnline { return .mains }
        if let battery {
            if battery.discharging || sawMains { return .battery(level: battery.level) }
            return .mains
        }
        return .unknown
    }

    private func value(_ supply: String, _ attribute: String) -> String? {
        let path = root + "/" + supply + "/" + attribute
        guard let data = FileManager.default.contents(atPath: path), data.count < 256 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
