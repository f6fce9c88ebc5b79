import DFUCore

/// The checks of Execute(command) before any data is accepted (nrf_dfu_validation.c
/// `nrf_dfu_validation_prevalidate`, nrf_dfu_ver_validation.c `nrf_dfu_ver_validation_check`),
/// for a bootloader built with a SoftDevice (`DFU_REQUIRES_SOFTDEVICE`, BLE), not a debug build
/// (`NRF_DFU_DEBUG` 0) and without external applications (`NRF_DFU_SUPPORTS_EXTERNAL_APP` 0).
struct InitCommandValidator {
    let configuration: SDKDeviceConfiguration
    let settings: DFUSettings

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
        guard softDeviceRequirementMet(command, type: type) else { return .extended(.softDeviceVersionFailure) }
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

    /// `sd_req_ok` with a SoftDevice present and a BLE bootloader.
    private func softDeviceRequirementMet(_ command: InitCommand, type: InitCommand.FirmwareType) -> Bool {
        let preventDowngrade = configuration.applicationDowngradePrevention || type == .softDevice
        guard let first = command.sdReq.first else { return false }
        if first != Self.appOverwritesSoftDevice {
            return command.sdReq.contains(configuration.softDeviceFWID)
        }
        if type == .application {
            // An application replacing the SoftDevice: refused by BLE bootloaders when the list
            // names more than the 0 entry and downgrades are prevented.
            return !(preventDowngrade && command.sdReq.count > 1)
        }
        return !preventDowngrade || type != .softDevice
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
