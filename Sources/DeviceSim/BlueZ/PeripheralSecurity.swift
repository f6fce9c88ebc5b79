import BlueZTransport
import Transport

/// What the virtual device, served through BlueZ, demands of a central's link before it takes
/// SMP (`dfu sim --security`): Zephyr's `CONFIG_MCUMGR_TRANSPORT_BT_PERM_RW` (open),
/// `…_RW_ENCRYPT` (encrypt) and `…_RW_AUTHEN` (authen, the default with `CONFIG_BT_SMP`), which
/// guard the SMP characteristic and its CCC alike (smp_bt.c `SMP_GATT_PERM`).
public enum PeripheralSecurity: String, Sendable, CaseIterable {
    case open
    case encrypt
    case authen

    /// What serving needs besides the level: its passkey, when it has one.
    public struct Pairing: Sendable, Equatable {
        public var security: PeripheralSecurity
        /// The fixed passkey the device enters (a KeyboardOnly responder: reference §9). Required
        /// for `authen`; optional for `encrypt` (Just Works without it).
        public var passkey: Passkey?

        public init(security: PeripheralSecurity = .open, passkey: Passkey? = nil) {
            self.security = security
            self.passkey = passkey
        }

        /// Why this cannot be served, or nil.
        public var problem: String? {
            if security == .authen, passkey == nil {
                return "--security authen needs --passkey N: an authenticated link is made with a passkey"
            }
            if security == .open, passkey != nil { return "--passkey needs --security encrypt or authen" }
            return nil
        }

        /// The IO capability of the device's agent; nil: it needs none (open).
        var agentCapability: String? {
            switch (security, passkey) {
            case (.open, _): return nil
            case (_, .some): return "KeyboardOnly"
            case (.encrypt, nil): return "NoInputNoOutput"
            case (.authen, nil): return nil
            }
        }
    }

    /// The SMP characteristic's BlueZ flags for this level (gatt-database.c `parse_chrc_flags`,
    /// 5.66): `encrypt[-authenticated]-write` guards its value (writes without response too) and
    /// adds the Write property; `encrypt[-authenticated]-notify` guards its CCC.
    func flags(forSMP flags: [String]) -> [String] {
        switch self {
        case .open:
            return flags
        case .encrypt:
            return flags.filter { $0 != "notify" } + ["encrypt-write", "encrypt-notify"]
        case .authen:
            return flags.filter { $0 != "notify" } + ["encrypt-authenticated-write", "encrypt-authenticated-notify"]
        }
    }

    /// "an authenticated link (passkey)", for `dfu sim`'s start line.
    public func describe(passkey: Passkey?) -> String {
        switch self {
        case .open: return "no pairing required"
        case .encrypt: return "an encrypted link required" + (passkey == nil ? " (Just Works)" : " (passkey set)")
        case .authen: return "an authenticated link required (passkey set)"
        }
    }
}
