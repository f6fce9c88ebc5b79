/// The part of the bootloader settings page (nrf_dfu_types.h `nrf_dfu_settings_t`) the model uses.
/// The bootloader works on a RAM copy (`s_dfu_settings`) and writes it to flash only at the points
/// the SDK does; `SDKDevice` keeps the flash copy.
struct DFUSettings: Sendable, Hashable {
    /// `NRF_DFU_BANK_*` codes.
    enum BankCode: UInt8, Sendable {
        case invalid = 0x00
        case validApplication = 0x01
        case validSoftDevice = 0xA5
        case validBootloader = 0xAA
        case validSoftDeviceBootloader = 0xAC
    }

    struct Bank: Sendable, Hashable {
        var code: BankCode = .invalid
        var imageSize: UInt32 = 0
        var imageCRC: UInt32 = 0
    }

    /// `dfu_progress_t`.
    struct Progress: Sendable, Hashable {
        var commandSize: UInt32 = 0
        var commandOffset: UInt32 = 0
        var commandCRC: UInt32 = 0
        var dataObjectSize: UInt32 = 0
        var imageCRC: UInt32 = 0
        var imageCRCLast: UInt32 = 0
        var imageOffset: UInt32 = 0
        var imageOffsetLast: UInt32 = 0
    }

    var applicationVersion: UInt32
    var bootloaderVersion: UInt32
    var bank0: Bank
    var bank1 = Bank()
    var writeOffset: UInt32 = 0
    var progress = Progress()
    /// `init_command[]`: the received init command bytes (only `progress.commandOffset` of them).
    var initCommand: [UInt8] = []

    /// nrf_dfu_settings.c `nrf_dfu_settings_progress_reset`: the init command and all progress go.
    mutating func resetProgress() {
        initCommand = []
        progress = Progress()
        writeOffset = 0
    }

    /// nrf_dfu_utils.c `nrf_dfu_bank_invalidate`.
    mutating func invalidate(bank1 isBank1: Bool) {
        if isBank1 { bank1 = Bank() } else { bank0 = Bank() }
        writeOffset = 0
    }
}
