extension MCUmgrSerial {
    /// What survives a reset: both image slots (with their trailers) and the retention boot mode
    /// (Zephyr `bootmode_set`, read and cleared by MCUboot's io.c `io_detect_boot_mode`).
    struct DeviceFlash: Equatable {
        var primary: FlashSlot
        var secondary: FlashSlot
        var retainedBootMode: UInt8?

        subscript(slot: Int) -> FlashSlot? {
            switch slot {
            case 0: return primary
            case 1: return secondary
            default: return nil
            }
        }
    }
}
