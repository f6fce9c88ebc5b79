/// What the application does on the serial port once the bootloader has started it. The SDK has no
/// serial DFU entry from an application; an application that wants an update has to reset into the
/// bootloader itself (GPREGRET's `BOOTLOADER_DFU_START`, nrf_bootloader.c `dfu_enter_check`).
public enum SDKSerialApplication: Sendable, Hashable {
    /// Answers nothing: every byte is ignored.
    case silent
    /// Sets the DFU flag and resets into the bootloader `after` it starts (zero: at once).
    case reentersBootloader(after: Duration)
}
