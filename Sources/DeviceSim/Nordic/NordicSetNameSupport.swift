/// How the simulated application answers buttonless set-name (`02 <len> <name>`,
/// nordic-secure-dfu.md §1.2): as SDK 14 and later do, as SDK 13 does (no such request), or as an
/// application built without `ble_dfu_buttonless_async_svci_init()`, which resets instead of
/// answering (iOS-PER `peripheralDidDisconnect`).
public enum NordicSetNameSupport: String, Sendable, Hashable, CaseIterable {
    /// Takes the name (1…20 bytes) and answers success; the bootloader advertises it.
    case supported = "on"
    /// Answers "op code not supported" (0x02); the bootloader keeps `DfuTarg`.
    case unsupported = "off"
    /// Resets into the application without answering.
    case resets
}
