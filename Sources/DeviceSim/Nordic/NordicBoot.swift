/// One start of the simulated device: what it started and why.
public struct NordicBoot: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case application(version: UInt32)
        case bootloader
    }

    public enum Reason: Sendable, Equatable {
        /// Buttonless `01`.
        case buttonless
        /// Buttonless set-name on an application without the async SVCI: it resets instead.
        case setNameWithoutSVCI
        case bootloaderReset(NordicResetCause)
        /// Power removed and restored; `enterBootloader` as if the DFU button were held.
        case powerCycle(enterBootloader: Bool)
    }

    public var target: Target
    public var reason: Reason

    public init(target: Target, reason: Reason) {
        self.target = target
        self.reason = reason
    }
}

extension NordicBoot.Reason {
    /// The bootloader reset after a SoftDevice (alone or with a bootloader) passed its final check.
    /// The SDK's bootloader then activates it and, the application being still valid, stays in DFU
    /// mode to take a new one (SDK 15 `nrf_bootloader_fw_activation.c` `nrf_bootloader_fw_activate`
    /// returns ACTIVATION_SUCCESS_EXPECT_ADDITIONAL_UPDATE for an SD update; `nrf_bootloader.c`
    /// `nrf_bootloader_init` then enters DFU mode with the continuation timeout). After a bootloader
    /// alone it returns ACTIVATION_SUCCESS, resets, and `dfu_enter_check` starts the valid application.
    public var activatedSoftDevice: Bool {
        guard case .bootloaderReset(.updated(let type, _)) = self else { return false }
        return type == .softdevice || type == .softdeviceBootloader
    }
}
