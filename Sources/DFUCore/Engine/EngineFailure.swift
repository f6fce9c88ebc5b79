import Transport

/// How the engine turns what went wrong below it (a request, the upload, the link) into the one
/// `DFUError` the user sees, by when it happened: what is lost, and whether running the same
/// command again helps, depends on the stage as much as on the error.
enum EngineFailure {
    static let rerun = "Run the same command again to resume."
    /// For failures after the upload completed: the next run skips the upload.
    static let rerunWithImageOnDevice = "The image is on the device; run the same command again to resume."

    /// A link that could not be made as secure as the device demands: exit 9, with dfu's fix.
    static func security(_ failure: SecurityFailure, device: String) -> DFUError {
        securityWithoutCause(failure, device: device).caused(by: .link(.security(failure)))
    }

    private static func securityWithoutCause(_ failure: SecurityFailure, device: String) -> DFUError {
        switch failure {
        case .pairingRequired(nil):
            return .authenticationFailed("pairing with \(device) needs its passkey: pass --passkey N (or run dfu on a "
                                         + "terminal to type it)")
        case .pairingRequired(let error?):
            // 0x0E: BlueZ tried to pair by itself (no agent could answer) and failed.
            let why = error == .unlikelyError ? "BlueZ's own pairing attempt failed, \(error)" : "it answered \(error)"
            return .authenticationFailed("\(device): the device requires an authenticated link (\(why) to an unpaired "
                                         + "link): pass --passkey N, or pair it first with dfu pair")
        case .pairingFailed(let reason, let detail):
            return .authenticationFailed("pairing with \(device) failed: \(reason)" + (detail.map { "; dfu's agent: \($0)" } ?? "")
                                         + ". Check the passkey the device expects (--passkey) and retry.")
        case .stillRefusedAfterPairing(let error):
            return .authenticationFailed("\(device) is paired but still refuses the link (\(error)): its bond is not "
                                         + "authenticated (Just Works has no MITM protection). Forget it with dfu unpair, "
                                         + "then pair again with --passkey N.")
        case .bondLost:
            return .authenticationFailed("\(device): the device no longer has dfu's bond (it was reset or reflashed; "
                                         + "encryption with the stored key fails): dfu unpair --device \(device), then pair "
                                         + "again with --passkey N (or pass --passkey N to this command)")
        }
    }
}
