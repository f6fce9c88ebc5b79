/// How a Nordic Secure DFU transfer that stopped turns into the `DFUError` the user sees: a device
/// that said no or broke the protocol is exit 7; a link or a device that went quiet is exit 6 and
/// resumable (the next run continues from the bootloader's offset, where it kept it).
enum NordicFailure {
    static func transfer(_ error: NordicTransferError) -> DFUError {
        message(error).caused(by: .nordicTransfer(error))
    }

    private static func message(_ error: NordicTransferError) -> DFUError {
        switch error {
        case .initPacketRejected, .validationFailed, .refused, .controlPointWriteRejected, .remoteProtocolViolation,
             .initPacketTooLarge:
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
