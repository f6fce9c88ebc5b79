import DFUCore

/// The OS management commands a DFU client uses (Zephyr os_mgmt.c): echo, reset, MCUmgr parameters
/// and bootloader info. Stateless: reset is reported as an effect for the device to carry out.
enum OSManager {
    /// `os_mgmt_echo`: `{"d": text}` → `{"r": text}`. A missing `d` echoes an empty string, as the
    /// bulk decoder leaves it empty; a `d` of another type is EINVAL.
    static func echo(_ body: CBORMap?) -> CommandOutcome {
        guard let body else { return .rc(.invalidValue) }
        switch body["d"] {
        case nil: return .body(OSEchoResponse(text: "").body)
        case .text(let text)?: return .body(OSEchoResponse(text: text).body)
        default: return .rc(.invalidValue)
        }
    }

    /// `os_mgmt_reset`: accepted (decode errors are ignored, `force` only matters to application
    /// hooks, which this device has none of); the reboot follows after `delay`. With
    /// `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE` (`bootMode`) a `boot_mode` key, a uint32, is stored
    /// in the retained boot mode (`bootmode_set`) unless it exceeds 255, which is `rc 3`
    /// (nrfconnect/sdk-zephyr os_mgmt.c).
    static func reset(_ body: CBORMap?, delay: Duration, bootMode: Bool) -> CommandOutcome {
        var outcome = CommandOutcome.body([:])
        if bootMode, let body, let value = requestedBootMode(body) {
            guard value <= UInt64(UInt8.max) else { return .rc(.invalidValue) }
            outcome.bootMode = UInt8(value)
        }
        outcome.resetAfter = delay
        return outcome
    }

    /// The `boot_mode` zcbor's bulk decode found before it stopped (a non-text key, the key again,
    /// a value that is no uint32): its failure is ignored, but a key decoded before it counts.
    private static func requestedBootMode(_ body: CBORMap) -> UInt64? {
        var found: UInt64?
        for entry in body.entries {
            guard let key = entry.key.text else { break }
            guard key == "boot_mode" else { continue }
            guard found == nil, let value = entry.value.uint, value <= UInt64(UInt32.max) else { break }
            found = value
        }
        return found
    }

    /// `os_mgmt_mcumgr_params`.
    static func parameters(_ configuration: SMPServerConfiguration) -> CommandOutcome {
        .body(MCUmgrParametersResponse(bufferSize: UInt64(configuration.bufferSize),
                                       bufferCount: UInt64(configuration.bufferCount)).body)
    }

    /// `os_mgmt_bootloader_info`: no recognised key → the bootloader's name; `query: "mode"` → the
    /// MCUboot mode number; any other query → a plain `rc 3`, even in v2 (reference §8).
    static func bootloaderInfo(_ body: CBORMap?, mode: MCUbootMode) -> CommandOutcome {
        guard let body, let request = try? BootloaderInfoRequest(body: body) else { return .rc(.invalidValue) }
        switch request.query {
        case nil: return .body(BootloaderInfoResponse(bootloader: "MCUboot").body)
        case "mode"?: return .body(BootloaderInfoResponse(mode: mode.rawValue).body)
        default: return .rc(.invalidValue)
        }
    }
}
