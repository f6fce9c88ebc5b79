/// How big the update is and where it goes (nrf_dfu_validation.c `update_data_size_get`,
/// `update_data_addr_get`; nrf_dfu_utils.c `nrf_dfu_cache_prepare`, `nrf_dfu_bank1_start_addr`).
struct UpdateSpace {
    let configuration: SDKDeviceConfiguration

    /// The image size the init command declares, or why there is none.
    func size(of command: InitCommand) -> Result<UInt32, DFUStatus> {
        let type = command.type ?? 0
        var size: UInt32 = 0
        if type == InitCommand.FirmwareType.application.rawValue {
            size = command.appSize ?? 0
        } else {
            if type & InitCommand.FirmwareType.softDevice.rawValue != 0, let sd = command.sdSize { size = sd }
            if type & InitCommand.FirmwareType.bootloader.rawValue != 0, let bootloader = command.blSize {
                guard bootloader <= configuration.bootloaderSize else {
                    return .failure(.failed(.insufficientResources))
                }
                size &+= bootloader
            }
        }
        return size == 0 ? .failure(.extended(.initCommandInvalid)) : .success(size)
    }

    /// Makes room for `size` bytes: above the current application when it fits there (dual bank),
    /// else over it, which invalidates the application at once (single bank). The SoftDevice is
    /// never given up by a BLE bootloader. Returns the start address, or 04 when nothing fits.
    func prepare(size: UInt32, type: UInt32, settings: inout DFUSettings) -> Result<UInt32, DFUStatus> {
        let singleBank = configuration.singleBankApplicationUpdates
            && (type == InitCommand.FirmwareType.application.rawValue
                || type == InitCommand.FirmwareType.softDevice.rawValue)
        let keepApplication = configuration.forceDualBankApplicationUpdates && settings.bank0.code == .validApplication
        let end = configuration.dfuRegionEnd
        let bank1Start = configuration.alignedToPage(configuration.applicationStart &+ settings.bank0.imageSize)
        let fitsAboveApplication = bank1Start <= end && size <= end - bank1Start
        if fitsAboveApplication && !singleBank { return .success(bank1Start) }
        if keepApplication {
            return fitsAboveApplication ? .success(bank1Start) : .failure(.failed(.insufficientResources))
        }
        // Pass 1 of nrf_dfu_cache_prepare: the application's space too. The SoftDevice stays.
        let start = configuration.applicationStart
        guard start <= end, size <= end - start else { return .failure(.failed(.insufficientResources)) }
        settings.invalidate(bank1: false)
        return .success(start)
    }
}
