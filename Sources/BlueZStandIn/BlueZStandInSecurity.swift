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

/// A device's IO capability in SMP pairing (Core spec Vol 3 Part H 2.3.2).
public enum BlueZStandInDeviceIO: Sendable, Hashable {
    /// Types a fixed passkey: the central must type the same one (the rig's sim, §9).
    case keyboardOnly
    /// Shows its passkey: the central types it.
    case displayOnly
    /// Shows a number and has a yes/no button: numeric comparison with a central that can too.
    case displayYesNo
    /// Keyboard and display: numeric comparison with a central that can, else passkey entry.
    case keyboardDisplay
}

/// How LE Secure Connections pairs us (the initiator) with the device, from both IO capabilities
/// (Core spec Vol 3 Part H 2.3.5.1, table 2.8), and so which Agent1 method bluetoothd calls on our
/// agent (device.c `new_auth` for the kernel's mgmt requests: a user passkey request is
/// `RequestPasskey`, a passkey notification `DisplayPasskey`, a user confirmation without the
/// Just Works hint `RequestConfirmation`). A device without a passkey pairs Just Works.
enum StandInPairingMethod: Sendable, Equatable {
    /// No agent call; the key is unauthenticated.
    case justWorks
    /// We type the passkey the device types or shows: our agent's `RequestPasskey`.
    case passkeyEntry
    /// We display a random passkey the device types: it cannot match its fixed one.
    case displayPasskey
    /// Both sides show the same number and the people confirm: `RequestConfirmation`.
    case numericComparison

    static func choose(devicePasskey: UInt32?, device: BlueZStandInDeviceIO = .keyboardOnly,
                       initiator: StandInIOCapability) -> StandInPairingMethod {
        guard devicePasskey != nil else { return .justWorks }
        switch (initiator, device) {
        case (.noInputNoOutput, _): return .justWorks
        case (.keyboardOnly, _): return .passkeyEntry
        case (.displayOnly, .keyboardOnly), (.displayOnly, .keyboardDisplay), (.displayYesNo, .keyboardOnly),
             (.keyboardDisplay, .keyboardOnly):
            return .displayPasskey
        case (.displayOnly, _), (.displayYesNo, .displayOnly): return .justWorks
        case (.displayYesNo, _), (.keyboardDisplay, .displayYesNo), (.keyboardDisplay, .keyboardDisplay):
            return .numericComparison
        case (.keyboardDisplay, .displayOnly): return .passkeyEntry
        }
    }
}
