import DFUCore

/// The checks of Execute(command) before any data is accepted (nrf_dfu_validation.c
/// `nrf_dfu_validation_prevalidate`, nrf_dfu_ver_validation.c `nrf_dfu_ver_validation_check`),
/// for a bootloader that is not a debug build (`NRF_DFU_DEBUG` 0) and has no external applications
/// (`NRF_DFU_SUPPORTS_EXTERNAL_APP` 0), built with the BLE stack or for serial (MBR only).
struct InitCommandValidator {
    let configuration: SDKDeviceConfiguration
    let settings: DFUSettings
    /// `BLE_STACK_SUPPORT_REQD` (or ANT): the bootloader itself needs the SoftDevice.
    var bleStack = true

    /// `SD_REQ_APP_OVERWRITES_SD`.
    static let appOverwritesSoftDevice: UInt32 = 0

    func prevalidate(_ packet: DecodedInitPacket) -> DFUStatus {
        let command = packet.command
        // signature_required: only application updates may go unsigned, and only when configured.
        let typeValue = command.type ?? 0
        let signatureRequired = typeValue != InitCommand.FirmwareType.application.rawValue
            || configuration.requireSignedApplicationUpdate
        if signatureRequired {
            let status = checkSignature(packet)
            guard status.isSuccess else { return status }
        }
        return checkVersions(command)
    }

    /// `nrf_dfu_validation_signature_check` over the init command bytes.
    func checkSignature(_ packet: DecodedInitPacket) -> DFUStatus {
        guard let signature = packet.signature else { return .extended(.signatureMissing) }
        // DFU_SIGNATURE_TYPE_ECDSA_P256_SHA256 = 0.
        guard packet.signatureType == 0 else { return .extended(.wrongSignatureType) }
        guard signature.count == 64 else { return .failed(.operationFailed) }
        return Self.verifies(signature, over: packet.signedBytes, with: configuration.publicKey)
            ? .success : .failed(.invalidObject)
    }

    /// The signature is r then s, each 32 bytes little-endian (the SDK swaps both halves before
    /// `nrf_crypto_ecdsa_verify`); the signed digest is SHA-256 of `data`.
    static func verifies(_ signature: [UInt8], over data: [UInt8], with key: PublicKey) -> Bool {
        guard signature.count == 64 else { return false }
        let r = Array(signature[0 ..< 32].reversed())
        let s = Array(signature[32 ..< 64].reversed())
        do {
            let digest = try SHA256.hash(data)
            return try key.isValidSignature(ECDSASignature.der(r: r, s: s), forDigest: digest)
        } catch {
            return false
        }
    }

    /// nrf_dfu_ver_validation.c `nrf_dfu_ver_validation_check`, in its order.
    func checkVersions(_ command: InitCommand) -> DFUStatus {
        guard let type = command.type.flatMap(InitCommand.FirmwareType.init(rawValue:)),
              type != .externalApplication else { return .extended(.initCommandInvalid) }
        guard command.hash?.type == InitCommand.sha256HashType else { return .extended(.wrongHashType) }
        guard let hardware = command.hwVersion else { return .extended(.initCommandInvalid) }
        guard hardware == configuration.hardwareVersion else { return .extended(.hardwareVersionFailure) }
        guard softDeviceRequirementMet(command) else { return .extended(.softDeviceVersionFailure) }
        if let version = command.fwVersion {
            return versionAccepted(version, type: type) ? .success : .extended(.firmwareVersionFailure)
        }
        // fw_version_required: optional for a SoftDevice, per policy for an application.
        let required: Bool
        switch type {
        case .softDevice: required = false
        case .application: required = configuration.applicationDowngradePrevention
        default: required = true
        }
        return required ? .extended(.initCommandInvalid) : .success
    }

    /// `sd_req_ok`. A serial bootloader finds out at run time whether a SoftDevice is there
    /// (`SD_PRESENT`); a BLE one always has it. `type` is the raw value, as the SDK compares it.
    private func softDeviceRequirementMet(_ command: InitCommand) -> Bool {
        let type = command.type ?? 0
        let softDeviceType = InitCommand.FirmwareType.softDevice.rawValue
        // With the BLE stack a SoftDevice update is always protected from downgrades.
        let preventDowngrade = configuration.applicationDowngradePrevention || (bleStack && type == softDeviceType)
        guard configuration.softDevicePresent else {
            // No SoftDevice: an update that needs one fails; otherwise only a version is asked for.
            if let first = command.sdReq.first, first != Self.appOverwritesSoftDevice { return false }
            return !preventDowngrade || command.fwVersion != nil
        }
        guard let first = command.sdReq.first else { return false }
        if first != Self.appOverwritesSoftDevice {
            return command.sdReq.contains(configuration.softDeviceFWID)
        }
        if type == InitCommand.FirmwareType.application.rawValue {
            // An application replacing the SoftDevice: with downgrades prevented and more than the 0
            // entry, the list must name the installed SoftDevice, and BLE bootloaders refuse anyway.
            guard preventDowngrade && command.sdReq.count > 1 else { return true }
            return !bleStack && command.sdReq.contains(configuration.softDeviceFWID)
        }
        return !preventDowngrade || type != softDeviceType
    }

    /// `fw_version_ok`.
    private func versionAccepted(_ version: UInt32, type: InitCommand.FirmwareType) -> Bool {
        switch type {
        case .application, .softDevice:
            guard configuration.applicationDowngradePrevention else { return true }
            if version > settings.applicationVersion { return true }
            return version == settings.applicationVersion && configuration.acceptSameApplicationVersion
        default:
            return version > settings.bootloaderVersion
        }
    }
}
