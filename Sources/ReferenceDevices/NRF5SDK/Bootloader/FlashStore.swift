/// What survives a reset: the settings page (with the name set-name stored for the bootloader) and
/// the received update in flash. The bootloader's RAM copy of the settings is written here only
/// where the SDK writes the settings page.
struct FlashStore: Sendable, Hashable {
    var settings: DFUSettings
    /// The update region as received so far (`firmware start` onward), as long as the current
    /// image; erased to 0xFF page by page on Create(data).
    var image: [UInt8] = []
    /// `adv_name` on the settings page: written by the application's set-name through the SVCI,
    /// read by the bootloader at start, erased when the bootloader starts the application.
    var bootloaderName: String?

    /// nrf_dfu_flash.c `nrf_dfu_flash_store` through fstorage's SoftDevice backend with parameter
    /// checks off (`NRF_FSTORAGE_PARAM_CHECK_DISABLED` 1 in both SDKs' bootloader configs): a write
    /// at an address that is not word-aligned fails in the SoftDevice and stores nothing; otherwise
    /// `max(1, len / 4)` whole words are written, so the tail of a write whose length is not a
    /// multiple of 4 is lost (bytes past the packet's end are the buffer's stale content, taken
    /// here as 0x00). The request handler has already counted every byte in offset and CRC.
    mutating func store(_ data: [UInt8], at offset: UInt32) {
        guard offset % 4 == 0 else { return }
        let words = max(1, data.count / 4)
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
}
