import Transport

/// What the virtual device's agent answers (pure). bluetoothd sends a responder's pairing requests
/// to the default agent, and on a machine where one bluetoothd serves both the device's adapter
/// and the central's (the rig), the central's requests too: only devices under the sim's own
/// adapter get an answer, so the central must answer for itself (reference §9).
struct PeripheralAgentPolicy: Sendable {
    let adapterPath: String
    let pairing: PeripheralSecurity.Pairing

    enum Decision: Equatable, Sendable {
        case passkey(UInt32)
        case accept
        case reject
    }

    /// `member` and its device path (nil for Cancel and Release).
    func decide(_ member: String, device: String?, passkey shown: UInt32? = nil) -> Decision {
        guard let device else { return .accept }
        guard device.hasPrefix(adapterPath + "/dev_") else { return .reject }
        switch member {
        case "RequestPasskey":
            return pairing.passkey.map { .passkey($0.value) } ?? .reject
        case "RequestConfirmation":
            return pairing.passkey.map { $0.value == shown } == true ? .accept : .reject
        case "RequestAuthorization":
            // Just Works: enough for an encrypted link, never for an authenticated one.
            return pairing.security == .encrypt && pairing.passkey == nil ? .accept : .reject
        case "DisplayPasskey":
            return .accept
        default:
            // PIN codes (BR/EDR) and service authorization: nothing the SMP device offers.
            return .reject
        }
    }
}
