import Foundation

/// The host a benchmark or campaign ran on, printed with its numbers: timings depend on it (CPU
/// time directly, the real-time link model through how punctually the host wakes it up).
public struct MachineInfo: Sendable, Encodable {
    public let cpuModel: String
    public let onlineCPUs: Int

    public static func current() -> MachineInfo {
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
