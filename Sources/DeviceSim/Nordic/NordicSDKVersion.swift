/// Which nRF5 SDK the simulated bootloader was built from, for the things that differ between
/// them here (nordic-secure-dfu.md §3.1, §10.2).
public enum NordicSDKVersion: Int, Sendable, Hashable, CaseIterable {
    case sdk15 = 15
    case sdk16 = 16
    case sdk17 = 17

    /// SDK 15.0 ignores the transport's deactivation and keeps its RAM progress; 16 and 17 reload
    /// their stored settings when the link goes.
    public var keepsProgressOnLinkDrop: Bool { self == .sdk15 }

    /// After refusing an init command at Execute, SDK 15.0 keeps it (and counts it as valid when
    /// only size or space failed); 16 and 17 reset all progress (`nrf_dfu_validation_init_cmd_execute`).
    public var keepsInitCommandAfterRefusal: Bool { self == .sdk15 }

    /// `INIT_COMMAND_MAX_SIZE`: 256 with settings v1 (SDK 15.0), 512 with settings v2 (15.3 on).
    public var commandObjectMaxSize: Int { self == .sdk15 ? 256 : 512 }
}
