/// Which core each MCUboot image index updates, from the board the device reports (OS info,
/// format `i`: Zephyr's `CONFIG_BOARD`, plus `@revision` when the board has one). An nRF5340
/// application core's build updates the application (image 0) and the network core (image 1):
/// its board is `nrf5340dk`, `thingy53`, … under hardware model v2, or ends in `_cpuapp`
/// (`_cpuapp_ns`) under v1. Any other board names no core: nil.
public enum ImageCores {
    public static func named(byBoard board: String) -> [UInt64: String]? {
        let name = board.lowercased().split(separator: "@").first.map(String.init) ?? ""
        let appCore = name.hasSuffix("_cpuapp") || name.hasSuffix("_cpuapp_ns") || name.contains("nrf5340")
            || name == "thingy53"
        guard appCore, !name.hasSuffix("_cpunet") else { return nil }
        return [0: "application core", 1: "network core"]
    }
}
