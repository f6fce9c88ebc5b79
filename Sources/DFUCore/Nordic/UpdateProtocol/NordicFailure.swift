/// How a Nordic Secure DFU transfer that stopped turns into the `DFUError` the user sees: a device
/// that said no or broke the protocol is exit 7; a link or a device that went quiet is exit 6 and
/// resumable (the next run continues from the bootloader's offset, where it kept it).
enum NordicFailure {
    /// `image`, where the caller passes the part it was sending, names the image and its size in
    /// the words for an update the bootloader has no room for (`NordicTransferError.isOutOfSpace`).
    static func transfer(_ error: NordicTransferError, image: NordicPackage.Image? = nil) -> DFUError {
        message(error, image: image).caused(by: .nordicTransfer(error))
    }

    private static func message(_ error: NordicTransferError, image: NordicPackage.Image?) -> DFUError {
        switch error {
        case .initPacketRejected:
            guard let image else { return .deviceRejected(error.description) }
            return .deviceRejected(error.description(kind: image.kind, size: image.firmware.count))
        case .validationFailed, .refused, .controlPointWriteRejected, .remoteProtocolViolation, .initPacketTooLarge:
            return .deviceRejected(error.description)
        case .timeout, .retriesExhausted, .linkNotRestored, .cancelled:
            return .transferInterrupted("transfer interrupted: \(error) \(EngineFailure.rerun)")
        case .invalidJob:
            return .deviceRejected(error.description)
        case .localProtocolViolation:
            return .internalError("Nordic transfer: \(error)")
        }
    }

    /// A system part the bootloader declines as not newer than what it runs: FW VERSION TOO LOW
    /// (0x05, also for a bootloader that is not strictly newer, SDK `nrf_dfu_ver_validation.c`),
    /// or pc-nrfutil's FIRMWARE ALREADY PRESENT (0x0E). Nordic's libraries then send the
    /// application alone (iOS `peripheralRejectedCommandObject`, Android `SecureDfuImpl` "Invalid
    /// system components"); any other refusal stays a failure.
    static func declinedAsInstalled(_ error: NordicTransferError) -> NordicRemoteError? {
        guard case .initPacketRejected(let remote) = error else { return nil }
        switch remote.extended {
        case .firmwareVersionTooLow, .firmwareAlreadyPresent: return remote
        default: return nil
        }
    }
}
