import DFUCore

/// What the serial bootloader answers to Hardware Version and Firmware Version, from the chip's
/// layout and the settings page (`on_hw_version_request`, `on_fw_version_request` in
/// `nrf_dfu_req_handler.c`; the serial transport alone sends these payloads).
enum NordicSerialVersions {
    /// FICR INFO.PART and INFO.FLASH/RAM of the chip, sizes in bytes, 4 KiB pages. The variant is a
    /// nominal one (FICR INFO.VARIANT in ASCII: `AAE0`, `AAB0`, `AAD0`).
    static func hardware(_ chip: NordicChipLayout) -> NordicHardwareVersion {
        let (part, variant, ramKiB): (UInt32, String, UInt32)
        switch chip.name {
        case NordicChipLayout.nrf52833.name: (part, variant, ramKiB) = (0x52833, "AAB0", 128)
        case NordicChipLayout.nrf52840.name: (part, variant, ramKiB) = (0x52840, "AAD0", 256)
        default: (part, variant, ramKiB) = (0x52832, "AAE0", 64)
        }
        let variantWord = variant.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return NordicHardwareVersion(part: part, variant: variantWord, romSize: UInt32(chip.flashSize),
                                     ramSize: ramKiB * 1024, romPageSize: UInt32(NordicChipLayout.pageSize))
    }

    /// Image 0 is the bootloader, 1 the SoftDevice, 2 the application (always valid in the sim);
    /// any other number answers type 0xFF and zeros. The application's length (`bank_0.image_size`)
    /// is not modelled: 0.
    static func firmware(image: UInt8, chip: NordicChipLayout, settings: NordicDFUSettings) -> NordicFirmwareVersion {
        switch image {
        case 0:
            return NordicFirmwareVersion(type: .bootloader, version: settings.bootloaderVersion,
                                         address: UInt32(chip.bootloaderStart), length: UInt32(chip.bootloaderSize))
        case 1:
            return NordicFirmwareVersion(type: .softdevice, version: softDeviceVersion(chip),
                                         address: UInt32(NordicChipLayout.mbrSize), length: UInt32(chip.softDeviceSize))
        case 2:
            return NordicFirmwareVersion(type: .application, version: settings.appVersion,
                                         address: UInt32(chip.applicationStart), length: 0)
        default:
            return NordicFirmwareVersion(type: .none, version: 0, address: 0, length: 0)
        }
    }

    /// `SD_VERSION_GET`: the SoftDevice's version as major · 1,000,000 + minor · 1,000 + bugfix
    /// (7002000 for the 7.2.0 every chip here carries), read from its name.
    static func softDeviceVersion(_ chip: NordicChipLayout) -> UInt32 {
        let numbers = (chip.softDevice.split(separator: " ").last ?? "").split(separator: ".").compactMap { UInt32($0) }
        guard numbers.count == 3 else { return 0 }
        return numbers[0] * 1_000_000 + numbers[1] * 1_000 + numbers[2]
    }
}
