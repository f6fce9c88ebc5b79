/// What dfu's agent answers, decided without any I/O (the agent carries it out).
///
/// Only the devices being updated get an answer (`allowed`, Device1 paths): when our agent is the
/// default one, bluetoothd also sends it other devices' requests, and those must never be
/// accepted. Just Works (RequestAuthorization) is refused: it has no MITM protection, so a device
/// that asks for authentication must not get it silently. PIN codes are BR/EDR legacy pairing,
/// which an LE update never needs.
struct BlueZAgentPolicy: Sendable {
    var input: BlueZPairing.Input

    enum Decision: Equatable, Sendable {
        /// Reply with the passkey.
        case passkey(Passkey)
        /// Reply with success and nothing else (void methods).
        case accept
        /// `org.bluez.Error.Rejected`, with why (for our log).
        case reject(String)
        /// Ask the person for the passkey the device shows.
        case askPasskey
        /// Ask the person whether the device shows this number.
        case askConfirmation(Passkey)
        /// Show the person the passkey to type on the device, then accept.
        case show(Passkey)
        /// bluetoothd cancelled the request in progress: tell the person, accept.
        case cancelled
    }

    func decide(_ request: BlueZAgentRequest, allowed: Set<String>) -> Decision {
        if let device = request.device, !allowed.contains(device) {
            return .reject("a pairing request for another device")
        }
        switch request {
        case .release:
            return .accept
        case .cancel:
            return .cancelled
        case .requestPinCode, .displayPinCode:
            return .reject("PIN code pairing (BR/EDR) is not used for LE updates")
        case .authorizeService:
            return .reject("dfu offers no services to authorize")
        case .requestAuthorization:
            return .reject("Just Works pairing has no MITM protection")
        case .requestPasskey:
            switch input {
            case .passkey(let passkey): return .passkey(passkey)
            case .prompt: return .askPasskey
            case .none: return .reject("no passkey was given")
            }
        case .displayPasskey(_, let value, _):
            guard case .prompt = input, let passkey = Passkey(value) else {
                // KeyboardOnly cannot display; the pairing fails on its own when only display works.
                return .accept
            }
            return .show(passkey)
        case .requestConfirmation(_, let value):
            guard let shown = Passkey(value) else { return .reject("an out-of-range passkey") }
            switch input {
            // Told the passkey: the same number on both sides is a match.
            case .passkey(let passkey): return passkey == shown ? .accept : .reject("the number differs from --passkey")
            case .prompt: return .askConfirmation(shown)
            case .none: return .reject("no passkey was given")
            }
        }
    }
}
