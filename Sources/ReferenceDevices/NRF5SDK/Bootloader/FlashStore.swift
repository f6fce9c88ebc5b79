/// What survives a reset: the settings page (with the name set-name stored for the bootloader) and
/// the received update in flash. The bootloader's RAM copy of the settings is written here only
/// where the SDK writes the settings page.
struct FlashStore: Sendable, Hashable {
    /// Which fstorage backend writes (nrf_dfu_flash.c `nrf_dfu_flash_init`): the SoftDevice's when
    /// the bootloader has the BLE stack, the NVMC's otherwise.
    enum Backend: Sendable, Hashable {
        case softDevice
        case nvmc
    }

    var settings: DFUSettings
    var backend = Backend.softDevice
    /// The update region as received so far (`firmware start` onward), as long as the current
    /// image; erased to 0xFF page by page on Create(data).
    var image: [UInt8] = []
    /// `adv_name` on the settings page: written by the application's set-name through the SVCI,
    /// read by the bootloader at start, erased when the bootloader starts the application.
    var bootloaderName: String?

    /// nrf_dfu_flash.c `nrf_dfu_flash_store` with fstorage's parameter checks off
    /// (`NRF_FSTORAGE_PARAM_CHECK_DISABLED` 1 in both SDKs' bootloader configs). Through the
    /// SoftDevice backend a write at an address that is not word-aligned fails and stores nothing;
    /// otherwise `max(1, len / 4)` whole words are written (bytes past the packet's end are the
    /// buffer's stale content, taken here as 0x00). The NVMC backend (nrf_fstorage_nvmc.c `write`)
    /// writes `len / 4` words, so a write shorter than a word stores nothing; an unaligned address is
    /// taken to store nothing there too (decided: the NVMC only writes whole aligned words). Either
    /// way the tail of a write whose length is not a multiple of 4 is lost. The request handler has
    /// already counted every byte in offset and CRC.
    mutating func store(_ data: [UInt8], at offset: UInt32) {
        guard offset % 4 == 0 else { return }
        let words = backend == .softDevice ? max(1, data.count / 4) : data.count / 4
        guard words > 0 else { return }
        var bytes = Array(data.prefix(words * 4))
        bytes += [UInt8](repeating: 0, count: words * 4 - bytes.count)
        let start = Int(offset)
        guard start < image.count else { return }
        let end = min(image.count, start + bytes.count)
        image.replaceSubrange(start ..< end, with: bytes.prefix(end - start))
    }

    /// Erases the pages an object of `size` bytes at `offset` covers.
    mutating func erase(from offset: UInt32, size: UInt32, pageSize: UInt32) {
        let pages = (UInt64(size) + UInt64(pageSize) - 1) / UInt64(pageSize)
        let start = min(Int(offset), image.count)
        let end = min(image.count, start + Int(pages * UInt64(pageSize)))
        guard start < end else { return }
        image.replaceSubrange(start ..< end, with: repeatElement(0xFF, count: end - start))
    }

    /// nrf_bootloader_fw_activation.c: a valid application in bank 1 is copied over bank 0; a new
    /// bootloader replaces the old one (its version is already in the settings). Returns whether an
    /// update was activated. The extra reset after activation is folded into the boot that follows.
    mutating func activateUpdate() -> Bool {
        switch settings.bank1.code {
        case .validApplication:
            let bank1 = settings.bank1
            settings.bank0 = DFUSettings.Bank(code: .validApplication, imageSize: bank1.imageSize, imageCRC: bank1.imageCRC)
            settings.bank1 = DFUSettings.Bank()
            return true
        case .validBootloader:
            settings.bank1 = DFUSettings.Bank()
            return true
        default:
            return false
        }
    }
}
