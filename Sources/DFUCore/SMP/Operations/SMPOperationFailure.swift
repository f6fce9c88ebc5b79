import Transport

/// How the everyday SMP operations fail in words a user can act on (the request failures they
/// share with an update are `SMPFailure`'s).
enum SMPOperationFailure {
    /// A Nordic Secure DFU device (or another without the SMP service): nothing was sent. Exit 4,
    /// as for the other devices dfu recognises but cannot serve this way.
    static func notSMP(_ operation: String, device: String) -> DFUError {
        .precondition([.notSMP(device: device, operation: operation)])
    }

    /// No slot holds an image with `hash`: which ones the device has, so the user can pick.
    static func hashNotFound(_ hash: [UInt8], listed: ImageStateResponse, device: String) -> DFUError {
        let held = listed.images.map { SMPSlotReference($0) }.map { "\($0.name) \(hexString($0.hash).prefix(16))…" }
        let list = held.isEmpty ? "it lists no image" : "its slots hold " + held.joined(separator: "; ")
        return .deviceRejected("\(device) has no image with hash \(hexString(hash).prefix(16))… (\(list)). "
                               + "'dfu image list' shows each slot's full hash.")
    }

    /// A refused state write, in words for the codes a user can do something about; nil: the
    /// device's own words (`SMPFailure`).
    static func markRefused(_ error: SMPError, target: SMPSlotReference, device: String) -> DFUError? {
        switch error.imageError {
        case .settingTestToActiveDenied?:
            return .deviceRejected("\(device) runs \(target.name) already: it cannot be marked for test "
                                   + "(IMAGE_SETTING_TEST_TO_ACTIVE_DENIED). 'dfu image confirm' makes it permanent.")
        case .imageAlreadyPending?:
            return .deviceRejected("\(device) refused: another image is already set to boot next "
                                   + "(IMAGE_ALREADY_PENDING). Reset the device ('dfu reset') to boot it first.")
        case .imageConfirmationDenied?:
            return .deviceRejected("\(device) refused to confirm \(target.name) (IMAGE_CONFIRMATION_DENIED): its "
                                   + "MCUmgr does not confirm the running image of an image number other than 0.")
        default:
            return nil
        }
    }

    static func eraseRefused(_ error: SMPError, which: String, device: String) -> DFUError? {
        guard error.imageError == .noFreeSlot || error.mcumgrError == .badState else { return nil }
        return .deviceRejected("\(device) refused to erase \(which): the slot is in use (it holds the running image, the "
                               + "one set to boot next, or the one the device would go back to; \(error)). "
                               + "'dfu image list' shows the flags; confirm or reset first.")
    }

    static func resetRefusedBusy(device: String) -> DFUError {
        .deviceRejected("\(device) refused the reset: its application answered busy. Try again later, or pass --force "
                        + "to reset anyway.")
    }

    /// No answer to the reset: the request or only its answer was lost, so whether the device
    /// reset is not known. Not sent again: a second reset would end a test boot. Exit 5.
    static func resetUnanswered(_ error: SMPClientError, reason: DisconnectReason?, device: String) -> DFUError {
        let what: String
        if case .timeout = error {
            what = "\(device) did not answer the reset request in time"
        } else {
            what = "the link to \(device) closed before it answered the reset request" + (reason.map { " (\($0))" } ?? "")
        }
        return .deviceUnreachable(what + ": whether it reset is not known, and dfu does not send it again (a second reset "
                                  + "would end a test boot). 'dfu image list' shows what it runs.", cause: .smpRequest(error))
    }

    /// The device said yes but its image list does not show what was asked.
    static func notAsAsked(_ what: String, _ expected: String, device: String) -> DFUError {
        .deviceRejected("\(device) accepted the request \(what) but does not list the image as \(expected). "
                        + "Check the device's MCUboot configuration ('dfu image list').")
    }
}
