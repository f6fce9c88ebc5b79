/// How an SMP update reaches MCUboot's serial recovery (`boot_serial.c`), where the bootloader
/// itself writes the image straight into the primary slot: nothing is marked or confirmed, and its
/// reset boots what it holds.
public enum MCUbootRecovery: Sendable, Equatable {
    /// The device already waits in recovery (its button held at reset, no valid application, or
    /// an earlier `boot_mode`): `serial:PATH,recovery`.
    case inRecovery
    /// The application is running: `os reset` with `boot_mode` 1 first (Zephyr's
    /// `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE`; MCUboot's `CONFIG_BOOT_SERIAL_BOOT_MODE` then stays
    /// in recovery), and the bootloader is waited for on the same port: `--enter-recovery`.
    case enterFromApplication
}
