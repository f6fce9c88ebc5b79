import Transport

/// What a device's protected characteristics need from the link (Zephyr's
/// `CONFIG_MCUMGR_TRANSPORT_BT_PERM_*`: the SMP characteristic and its CCC; bluez-dbus.md §9).
public enum BlueZStandInSecurity: Sendable, Hashable {
    /// No security: everything works on a plain link (the default; the stand-in as before).
    case open
    /// An encrypted link (any bond, Just Works included).
    case encrypt
    /// An authenticated (MITM, passkey) encrypted link: `..._RW_AUTHEN`, Zephyr's default with SMP.
    case authenticate

    /// The link level this requirement asks for.
    public var requiredLevel: BlueZStandInLinkSecurity {
        switch self {
        case .open: .none
        case .encrypt: .encrypted
        case .authenticate: .authenticated
        }
    }

    /// Which characteristics the requirement covers: those with notify or write-without-response
    /// (SMP, a DFU control point) unless they can be read (Battery Level, DIS stay open).
    public static func protects(_ properties: CharacteristicProperties) -> Bool {
        !properties.contains(.read) && (properties.contains(.notify) || properties.contains(.writeWithoutResponse))
    }
}

/// A link's (or a bond's) security level: what the LTK in use gives.
public enum BlueZStandInLinkSecurity: Int, Sendable, Hashable, Comparable {
    /// Not encrypted.
    case none
    /// Encrypted with an unauthenticated key (Just Works).
    case encrypted
    /// Encrypted with an authenticated key (passkey entry).
    case authenticated

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An agent's IO capability as `RegisterAgent` names it (agent.c `parse_io_capability`).
enum StandInIOCapability: String, Sendable {
    case displayOnly = "DisplayOnly"
    case displayYesNo = "DisplayYesNo"
    case keyboardOnly = "KeyboardOnly"
    case noInputNoOutput = "NoInputNoOutput"
    case keyboardDisplay = "KeyboardDisplay"

    /// "" means KeyboardDisplay; anything else unknown is nil (InvalidArguments).
    init?(registered name: String) {
        if name.isEmpty {
            self = .keyboardDisplay
        } else {
            self.init(rawValue: name)
        }
    }
}

/// How SMP pairs us (the initiator) with the device, from both IO capabilities (Core spec Vol 3
/// Part H 2.3.5.1, as the kernel's smp.c `get_auth_method` reads the table). The device is a
/// KeyboardOnly responder when it has a fixed passkey, else NoInputNoOutput.
enum StandInPairingMethod: Sendable, Equatable {
    /// No agent call; the key is unauthenticated.
    case justWorks
    /// Both sides type the passkey: our agent's `RequestPasskey`.
    case passkeyEntry
    /// We display a random passkey the device types: it cannot match its fixed one.
    case displayPasskey

    static func choose(devicePasskey: UInt32?, initiator: StandInIOCapability) -> StandInPairingMethod {
        guard devicePasskey != nil else { return .justWorks }
        switch initiator {
        case .keyboardOnly: return .passkeyEntry
        case .displayOnly, .displayYesNo, .keyboardDisplay: return .displayPasskey
        case .noInputNoOutput: return .justWorks
        }
    }
}
