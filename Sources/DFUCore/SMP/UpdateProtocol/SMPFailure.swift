import Transport

/// How an SMP request or the upload that failed turns into the `DFUError` the user sees, by the
/// stage it failed in (see `EngineFailure` for what all protocols share).
enum SMPFailure {
    /// A request before the transfer (parameters, image list) failed: nothing was written yet.
    static func beforeTransfer(_ what: String, _ error: SMPClientError, device: String,
                               lossReason: DisconnectReason?) -> DFUError {
        beforeTransferWithoutCause(what, error, device: device, lossReason: lossReason).caused(by: .smpRequest(error))
    }

    private static func beforeTransferWithoutCause(_ what: String, _ error: SMPClientError, device: String,
                                                   lossReason: DisconnectReason?) -> DFUError {
        switch error {
        case .refused(let smp):
            return .deviceRejected("\(device) refused \(what): \(smp)")
        case .remoteProtocolViolation:
            return .deviceRejected("\(device) answered \(what) wrongly: \(error)")
        case .timeout:
            return .deviceUnreachable("\(device) did not answer \(what) in time. Check that it runs MCUmgr and is in range, then retry.")
        case .cancelled:
            return .transferInterrupted("\(what) was cancelled before \(device) answered. \(EngineFailure.rerun)")
        case .linkLost, .closed:
            // A reason a backend words itself (`.other`) already says what to check.
            if case .other(let text)? = lossReason {
                return .deviceUnreachable("the link to \(device) closed before it answered \(what): \(text)")
            }
            return .deviceUnreachable("the link to \(device) closed before it answered \(what)"
                                      + (lossReason.map { " (\($0))" } ?? "") + ". Check that it is powered and in range, then retry.")
        case .invalidBudget:
            return .deviceUnreachable("\(device) cannot be updated over this link: \(error)")
        case .requestTooLarge, .noFreeSequence, .busy, .localProtocolViolation:
            return .internalError("\(what): \(error)")
        }
    }

    /// The upload stopped. A device that said no, or broke the protocol, is exit 7; a link or a
    /// device that went quiet is exit 6 and resumable: the device keeps its upload session (by the
    /// file's SHA-256) until it resets.
    static func upload(_ error: ImageUploadError) -> DFUError {
        uploadWithoutCause(error).caused(by: .smpUpload(error))
    }

    private static func uploadWithoutCause(_ error: ImageUploadError) -> DFUError {
        switch error {
        case .refused(let smp, _) where smp.imageError == .currentVersionIsNewer:
            // Exit 7, not 4: the device said no to what was sent (the first packet), by its own rule.
            return .deviceRejected("the device refuses an image that is not newer than the one it runs "
                                   + "(CURRENT_VERSION_IS_NEWER, asked for by --require-newer); nothing was written. "
                                   + "Flash a newer image, or leave out --require-newer to decide here.")
        case .refused, .remoteProtocolViolation, .packetTooSmall:
            return .deviceRejected(error.description)
        case .timeout, .retriesExhausted, .deviceBusy, .linkNotRestored, .deviceSilent, .imageMismatch:
            return .transferInterrupted("upload interrupted: \(error) \(EngineFailure.rerun)")
        case .client(let client):
            switch client {
            case .linkLost, .timeout, .closed, .cancelled:
                return .transferInterrupted("upload interrupted: \(client) \(EngineFailure.rerun)")
            case .refused, .remoteProtocolViolation:
                return .deviceRejected(client.description)
            case .invalidBudget:
                return .deviceRejected(client.description)
            case .requestTooLarge, .noFreeSequence, .busy, .localProtocolViolation:
                return .internalError("upload: \(client)")
            }
        case .invalidJob, .localProtocolViolation:
            return .internalError("upload: \(error)")
        }
    }

    /// A request after the upload and before the reset (mark for test or confirm) failed. The image
    /// is on the device, so a second run skips the upload.
    static func activation(_ what: String, _ error: SMPClientError, device: String) -> DFUError {
        activationWithoutCause(what, error, device: device).caused(by: .smpRequest(error))
    }

    private static func activationWithoutCause(_ what: String, _ error: SMPClientError, device: String) -> DFUError {
        switch error {
        case .refused(let smp):
            return .deviceRejected("\(device) refused \(what): \(smp)")
        case .remoteProtocolViolation:
            return .deviceRejected("\(device) answered \(what) wrongly: \(error)")
        case .timeout, .linkLost, .closed, .cancelled:
            return .transferInterrupted("\(what) did not complete: \(error) \(EngineFailure.rerunWithImageOnDevice)")
        case .invalidBudget, .requestTooLarge, .noFreeSequence, .busy, .localProtocolViolation:
            return .internalError("\(what): \(error)")
        }
    }

    /// A request after the reboot (read the images, confirm) failed.
    static func afterReboot(_ what: String, _ error: SMPClientError, device: String) -> DFUError {
        afterRebootWithoutCause(what, error, device: device).caused(by: .smpRequest(error))
    }

    private static func afterRebootWithoutCause(_ what: String, _ error: SMPClientError, device: String) -> DFUError {
        switch error {
        case .refused(let smp):
            return .postRebootCheckFailed("\(device) came back but refused \(what): \(smp)")
        case .remoteProtocolViolation, .timeout, .linkLost, .closed, .cancelled, .invalidBudget:
            return .postRebootCheckFailed("\(device) came back but \(what) failed: \(error)")
        case .requestTooLarge, .noFreeSequence, .busy, .localProtocolViolation:
            return .internalError("\(what): \(error)")
        }
    }
}
