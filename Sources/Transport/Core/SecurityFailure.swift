/// Why a link could not be made as secure as the device demands (`LinkError.security`). The
/// wording is the stack's; the engine adds how to fix it with dfu's own options.
public enum SecurityFailure: Hashable, Sendable, CustomStringConvertible {
    /// The device refused an unpaired link (`error`: the ATT error it gave; nil: pairing was asked
    /// for up front) and there was no way to pair: no passkey, no terminal to ask.
    case pairingRequired(ATTError?)
    /// Pairing was tried and failed; `reason` is the stack's (e.g. BlueZ's
    /// `AuthenticationFailed`), `detail` what our agent refused, if it refused.
    case pairingFailed(reason: String, detail: String?)
    /// The device is paired but still refuses (`error`): its key is not good enough, typically a
    /// Just Works pairing (no MITM protection) where it requires authentication.
    case stillRefusedAfterPairing(ATTError)
    /// The stack holds a bond but the device no longer does (a factory image): encryption with the
    /// stored key fails, and there is no passkey to pair again with.
    case bondLost

    public var description: String {
        switch self {
        case .pairingRequired(let error?):
            return "the device requires an authenticated link (it answered \(error) to an unpaired link)"
        case .pairingRequired(nil):
            return "pairing needs a passkey, and none was given"
        case .pairingFailed(let reason, let detail):
            return "pairing failed: \(reason)" + (detail.map { " (\($0))" } ?? "")
        case .stillRefusedAfterPairing(let error):
            return "the device is paired but still refuses the link (\(error)): its key is not authenticated (Just Works pairing has no MITM protection)"
        case .bondLost:
            return "the device no longer has the bond: encryption with the stored key fails"
        }
    }
}
