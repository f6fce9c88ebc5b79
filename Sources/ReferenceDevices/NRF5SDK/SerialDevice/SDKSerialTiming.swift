/// How long the bootloader's main loop takes over a request (model-only: the SDK has no such
/// numbers). Zero everywhere, the default, handles each request the moment its frame ends. With
/// time, requests wait in the scheduler's queue, a Write keeps its receive buffer until its flash
/// write is done, and frames that come meanwhile use up the transport's buffers.
///
/// Serial bootloaders write flash through the NVMC backend, synchronously (nrf_dfu_flash.c
/// `nrf_dfu_flash_init(false)`, nrf_fstorage_nvmc.c): a data Write takes `wordWrite` per 32-bit word,
/// a data Create erases its pages, and a settings write (Execute of the init command, the last data
/// object, every data object with `NRF_DFU_SAVE_PROGRESS_IN_FLASH`) erases the settings page and,
/// in SDK 17, its backup (`nrf_dfu_settings_write_and_backup`). The chip's datasheet gives the
/// word-write and page-erase times.
public struct SDKSerialTiming: Sendable, Hashable {
    /// Every request, before any flash work.
    public var perRequest: Duration
    /// One 32-bit word written.
    public var wordWrite: Duration
    /// One flash page erased.
    public var pageErase: Duration

    public init(perRequest: Duration = .zero, wordWrite: Duration = .zero, pageErase: Duration = .zero) {
        self.perRequest = perRequest
        self.wordWrite = wordWrite
        self.pageErase = pageErase
    }

    public static let instant = SDKSerialTiming()
}
