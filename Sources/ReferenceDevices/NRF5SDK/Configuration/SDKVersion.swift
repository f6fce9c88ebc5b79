/// Which nRF5 SDK the modelled device was built with. Only the differences the model needs are
/// named; every other rule is the same in both (checked against both trees).
///
/// Sources: SDK 15.0.0 (kaidokert/nRF5_SDK @d6198b2) and SDK 17.0.0 (fugreat/nRF5_SDK_17.0.0_9d13099
/// @6f0f782), `components/libraries/bootloader/…` and `examples/dfu/secure_bootloader/…/sdk_config.h`.
public enum SDKVersion: String, Sendable, CaseIterable {
    case v15_0 = "15.0"
    case v17_0 = "17.0"

    /// Whether the bootloader keeps its RAM progress when the link drops. SDK 17's `dfu_observer`
    /// (nrf_bootloader.c) reloads the stored settings on `NRF_DFU_EVT_TRANSPORT_DEACTIVATED`
    /// (`nrf_dfu_settings_reinit`); SDK 15.0's observer has no such case, so its RAM state survives.
    public var keepsProgressOnLinkLoss: Bool { self == .v15_0 }

    /// `INIT_COMMAND_MAX_SIZE` (nrf_dfu_types.h): 256 in 15.0, 512 in 17.0 (settings version 2).
    public var initCommandMaxSize: UInt32 { self == .v15_0 ? 256 : 512 }

    /// `NRF_DFU_PROTOCOL_REDUCED` in the BLE bootloader's sdk_config.h: 1 in the 17.0 example, absent
    /// (0) in 15.0. When set, op codes 0x00, 0x07, 0x09, 0x0A and 0x0B are answered "not supported"
    /// (nrf_dfu_req_handler.c `nrf_dfu_req_handler_req_process`).
    public var protocolReduced: Bool { self == .v17_0 }
}
