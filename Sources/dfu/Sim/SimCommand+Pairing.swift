import ArgumentParsing
import DeviceSim

/// `dfu sim --security LEVEL --passkey N`: what the virtual device, served through BlueZ, demands
/// of a central's link (README, "Devices that require pairing").
extension SimCommand {
    /// `--security` and `--passkey`: only for bluez:, and authen only with a passkey.
    func pairing(for target: ServeTarget) throws(UsageError) -> PeripheralSecurity.Pairing {
        guard security != nil || passkey != nil else { return PeripheralSecurity.Pairing() }
        guard case .bluez = target else {
            throw UsageError("--security and --passkey are for --serve bluez:hciN (a UDP server has no pairing)")
        }
        let level = security ?? "encrypt"
        guard let parsed = PeripheralSecurity(rawValue: level) else {
            throw UsageError("invalid --security '\(level)': expected open, encrypt or authen")
        }
        let pairing = PeripheralSecurity.Pairing(security: parsed, passkey: passkey)
        if let problem = pairing.problem { throw UsageError(problem) }
        return pairing
    }
}
