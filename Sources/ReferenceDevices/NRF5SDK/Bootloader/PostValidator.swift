import DFUCore

/// The checks after the last data object and what a passing image does to the settings
/// (nrf_dfu_validation.c `postvalidate` with `is_trusted`, reached through
/// `nrf_dfu_validation_activation_prepare` in a bootloader, SDK 17; SDK 15.0's
/// `nrf_dfu_validation_post_data_execute` makes the same checks).
struct PostValidator {
    let configuration: SDKDeviceConfiguration

    /// `boot_validation_type_t` values carried in `InitCommand.boot_validation`.
    enum BootValidationType: UInt32 {
        case none = 0, crc = 1, sha256 = 2, ecdsaP256SHA256 = 3
    }

    /// Validates `image` (the received bytes) against `command` and updates `settings`: bank 1
    /// marked valid on success, invalidated on failure; progress reset either way.
    func validate(_ image: [UInt8], command: InitCommand, settings: inout DFUSettings) -> DFUStatus {
        let status = check(image, command: command, settings: &settings)
        if status.isSuccess {
            settings.bank1.imageCRC = CRC32.checksum(image)
            settings.bank1.imageSize = UInt32(image.count)
        } else {
            settings.invalidate(bank1: true)
        }
        settings.resetProgress()
        return status
    }

    private func check(_ image: [UInt8], command: InitCommand, settings: inout DFUSettings) -> DFUStatus {
        // fw_hash_ok: the stored hash is little-endian (nrfutil writes SHA-256 reversed).
        guard let expected = command.hash?.bytes, let actual = try? SHA256.hash(image),
              expected.count == actual.count, Array(expected.reversed()) == actual else {
            return .extended(.verificationFailed)
        }
        switch command.type.flatMap(InitCommand.FirmwareType.init(rawValue:)) {
        case .application:
            // postvalidate_app: boot validation 0 (default CRC) must be computable and hold.
            guard bootValidationHolds(command, index: 0, image: image, default: .crc) else {
                return .failed(.invalidObject)
            }
            settings.bank1.code = .validApplication
            settings.bank0.code = .invalid
            settings.applicationVersion = command.fwVersion ?? 0
            return .success
        case .bootloader:
            // postvalidate_sd_bl without a SoftDevice: boot validation 0 defaults to none.
            guard bootValidationHolds(command, index: 0, image: image, default: .none) else {
                return .failed(.invalidObject)
            }
            settings.bank1.code = .validBootloader
            settings.bootloaderVersion = command.fwVersion ?? 0
            return .success
        default:
            // SoftDevice images need an info structure (softdevice_info_ok) this model does not
            // build: refused as the SDK refuses an image without one.
            return .failed(.invalidObject)
        }
    }

    /// `boot_validation_extract` followed by `nrf_dfu_validation_boot_validate`: CRC and SHA-256 are
    /// computed from the image itself and hold; ECDSA checks the carried signature of the image;
    /// an unknown type fails.
    private func bootValidationHolds(_ command: InitCommand, index: Int, image: [UInt8],
                                     default fallback: BootValidationType) -> Bool {
        let entry = index < command.bootValidation.count ? command.bootValidation[index] : nil
        let raw = entry?.type ?? fallback.rawValue
        guard let type = BootValidationType(rawValue: raw) else { return false }
        switch type {
        case .none, .crc, .sha256:
            return true
        case .ecdsaP256SHA256:
            var signature = entry?.bytes ?? []
            signature += [UInt8](repeating: 0, count: max(0, 64 - signature.count))
            return InitCommandValidator.verifies(Array(signature.prefix(64)), over: image, with: configuration.publicKey)
        }
    }
}
