import Foundation

/// The host the numbers were measured on: they depend on it (CPU time directly, goodput through
/// how punctually the real-time link model wakes up).
struct MachineInfo: Sendable, Encodable {
    let cpuModel: String
    let onlineCPUs: Int

    static func current() -> MachineInfo {
        MachineInfo(cpuModel: cpuModel() ?? "unknown", onlineCPUs: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The first `model name` line of /proc/cpuinfo (Linux).
    private static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
