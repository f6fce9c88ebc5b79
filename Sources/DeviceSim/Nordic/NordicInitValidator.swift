import DFUCore

/// The checks the nRF5 SDK bootloader makes at Execute(command) and after the last data object
/// (`nrf_dfu_validation.c`, `nrf_dfu_ver_validation.c`; nordic-secure-dfu.md §4.3, §10.4), in the
/// SDK's order: decode, signature, type, hash type, hw_version, sd_req, fw_version, size, space.
/// The first failure is the answer.
struct NordicInitValidator: Sendable {
    /// An init command that passed: what the data transfer and the final check need from it.
    struct Accepted: Sendable, Equatable {
        var type: NordicFirmwareType
        var fwVersion: UInt32?
        var firmwareSize: Int
        /// As stored in the init packet: SHA-256 byte-reversed.
        var storedHash: [UInt8]
    }

    /// Why an Execute(command) failed. `versionsPassed` mirrors SDK 15.0 marking the init command
    /// valid as soon as the version checks pass, before the size and space checks.
    struct Refusal: Error, Sendable, Equatable {
        var result: NordicDFUResult
        var versionsPassed: Accepted?
    }

    let configuration: NordicBootloaderConfiguration

    func validate(_ bytes: [UInt8], settings: NordicDFUSettings) -> Result<Accepted, Refusal> {
        func refuse(_ result: NordicDFUResult, _ passed: Accepted? = nil) -> Result<Accepted, Refusal> {
            .failure(Refusal(result: result, versionsPassed: passed))
        }
        // nanopb failing to decode the packet (or finding neither command): invalid object.
        guard let packet = try? NordicInitPacket(bytes: bytes, file: "init command") else {
            return refuse(.invalidObject)
        }
        // Signed updates are required for every type (NRF_DFU_REQUIRE_SIGNED_APP_UPDATE = 1).
        guard let signature = packet.signature else { return refuse(.extended(.signatureMissing)) }
        guard signature.type == 0 else { return refuse(.extended(.wrongSignatureType)) }
        // A signature that is not 64 bytes fails before verification with "operation failed".
        guard signature.bytes.count == 64 else { return refuse(.operationFailed) }
        guard verifies(signature.bytes, over: packet.signedBytes) else { return refuse(.invalidObject) }

        let command = packet.initCommand
        guard let type = command.type, Self.updatableTypes.contains(type) else {
            return refuse(.extended(.initCommandInvalid))
        }
        guard command.hashType == .sha256 else { return refuse(.extended(.wrongHashType)) }
        guard let hardware = command.hwVersion else { return refuse(.extended(.initCommandInvalid)) }
        guard hardware == configuration.hardwareVersion else { return refuse(.extended(.hardwareVersionFailure)) }
        guard softDeviceRequirementMet(command) else { return refuse(.extended(.softDeviceVersionFailure)) }
        if let version = command.fwVersion {
            guard versionAllowed(version, type: type, settings: settings) else {
                return refuse(.extended(.firmwareVersionFailure))
            }
        } else if type != .softdevice, type != .application || configuration.downgradePrevention {
            return refuse(.extended(.initCommandInvalid))
        }

        var accepted = Accepted(type: type, fwVersion: command.fwVersion, firmwareSize: 0,
                                storedHash: command.storedHash ?? [])
        let sizeResult = size(of: command, type: type, into: &accepted.firmwareSize)
        guard sizeResult == .success else { return refuse(sizeResult, accepted) }
        // `update_data_addr_get`: no room even with the application given up (`nrf_dfu_cache_prepare`,
        // `NordicChipLayout`) is plain 0x04; the SDK never sends the extended INSUFFICIENT SPACE (0x0D).
        guard accepted.firmwareSize <= configuration.updateCapacity else { return refuse(.insufficientResources, accepted) }
        return .success(accepted)
    }

    /// The final check: SHA-256 of what was received against the init packet's (stored reversed).
    func firmwareMatches(_ image: ArraySlice<UInt8>, _ accepted: Accepted) -> Bool {
        guard let digest = try? SHA256.hash(image) else { return false }
        // memcmp over 32 bytes: a shorter stored hash is padded with zeros, as nanopb leaves it.
        let stored = Array(accepted.storedHash.prefix(32)) + Array(repeating: 0, count: max(0, 32 - accepted.storedHash.count))
        return Array(digest.reversed()) == stored
    }

    private static let updatableTypes: [NordicFirmwareType] = [.application, .softdevice, .bootloader, .softdeviceBootloader]

    /// ECDSA P-256 over SHA-256 of the InitCommand bytes as received; r and s are stored reversed.
    private func verifies(_ signature: [UInt8], over signed: ArraySlice<UInt8>) -> Bool {
        guard signature.count == 64, configuration.key.algorithm == .ecdsaP256,
              let digest = try? SHA256.hash(signed) else { return false }
        let r = Array(signature[0 ..< 32].reversed())
        let s = Array(signature[32 ..< 64].reversed())
        return (try? configuration.key.isValidSignature(ECDSASignature.der(r: r, s: s), forDigest: digest)) == true
    }

    /// `sd_req_ok` with a SoftDevice present: the installed FWID must be listed, unless the first
    /// entry is 0x00 (the update brings its own SoftDevice).
    private func softDeviceRequirementMet(_ command: NordicInitCommand) -> Bool {
        let installed = configuration.softDeviceFWID
        guard let first = command.sdReq.first, first != 0 else {
            if command.type == .application {
                if configuration.downgradePrevention, command.sdReq.count > 1 { return command.sdReq.contains(installed) }
                return true
            }
            return !configuration.downgradePrevention || command.type != .softdevice
        }
        return command.sdReq.contains(installed)
    }

    /// Applications and SoftDevices must not go below the app version; a bootloader must go up.
    private func versionAllowed(_ version: UInt32, type: NordicFirmwareType, settings: NordicDFUSettings) -> Bool {
        switch type {
        case .application, .softdevice:
            return version >= settings.appVersion || !configuration.downgradePrevention
        default:
            return version > settings.bootloaderVersion
        }
    }

    /// `update_data_size_get`: app_size for an application, sd_size and/or bl_size otherwise.
    private func size(of command: NordicInitCommand, type: NordicFirmwareType, into total: inout Int) -> NordicDFUResult {
        total = 0
        if type == .application, let app = command.appSize {
            total = Int(app)
        } else {
            if type == .softdevice || type == .softdeviceBootloader, let sd = command.sdSize { total = Int(sd) }
            if type == .bootloader || type == .softdeviceBootloader, let bl = command.blSize {
                guard Int(bl) <= configuration.bootloaderCapacity else { return .insufficientResources }
                total += Int(bl)
            }
        }
        return total > 0 ? .success : .extended(.initCommandInvalid)
    }
}
