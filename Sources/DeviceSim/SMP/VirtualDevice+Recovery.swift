import DFUCore
import Transport

/// What MCUboot's serial recovery needs of the device (`SerialVirtualDevice` drives both): the
/// application held off while the bootloader answers on the line, the retained boot mode MCUboot
/// reads at boot, and the flash the recovery writes.
extension VirtualDevice {
    /// MCUboot stays in serial recovery: RAM is lost, nothing connects, the application does not
    /// start (a boot in progress does not come online).
    mutating func holdInRecovery() {
        connection = nil
        server.loseRAM()
        power = .inRecovery
    }

    /// `io_detect_boot_mode` (`BOOT_SERIAL_BOOT_MODE`), after `boot_go`: true when the retained
    /// boot mode asks for the bootloader (1), which MCUboot then clears.
    mutating func takeRecoveryBootMode() -> Bool {
        guard retainedBootMode == 1 else { return false }
        retainedBootMode = 0
        return true
    }

    /// The recovery's reset (`sys_reboot`): MCUboot boots as at any reset, and the application
    /// starts after the report's duration unless the caller holds it in recovery again.
    mutating func resetFromRecovery(at time: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        reboot(at: time, into: &actions)
        return actions
    }

    /// Runs `body` on the bootloader's slots (the recovery writes the primary slot directly).
    mutating func withBootloader<T>(_ body: (inout MCUbootBootloader) -> T) -> T {
        body(&server.bootloader)
    }

    /// Turns on `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE`: a reset's `boot_mode` is kept for MCUboot.
    mutating func keepResetBootMode() {
        server.configuration.resetBootMode = true
    }
}
