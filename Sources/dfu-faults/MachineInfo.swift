import Foundation

/// The host the numbers were measured on. The outcomes should not depend on it; the model-time
/// durations do a little, because the paced link model wakes up only as punctually as the host lets it.
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
