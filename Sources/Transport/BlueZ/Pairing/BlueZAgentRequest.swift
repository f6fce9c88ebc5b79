import DBusBinding

/// One call bluetoothd makes on an `org.bluez.Agent1` (doc/agent-api.txt), decoded. A call whose
/// arguments do not have the documented types is `nil` from `init` (and is rejected).
enum BlueZAgentRequest: Sendable, Equatable {
    case requestPinCode(device: String)
    case displayPinCode(device: String)
    case requestPasskey(device: String)
    /// `entered`: how many digits the device's user has typed so far.
    case displayPasskey(device: String, passkey: UInt32, entered: UInt16)
    case requestConfirmation(device: String, passkey: UInt32)
    case requestAuthorization(device: String)
    case authorizeService(device: String, uuid: String)
    case cancel
    case release

    /// The Agent1 methods and their argument signatures, for export and introspection.
    static let signatures: [String: (arguments: String, reply: String)] = [
        "Release": ("", ""), "RequestPinCode": ("o", "s"), "DisplayPinCode": ("os", ""),
        "RequestPasskey": ("o", "u"), "DisplayPasskey": ("ouq", ""), "RequestConfirmation": ("ou", ""),
        "RequestAuthorization": ("o", ""), "AuthorizeService": ("os", ""), "Cancel": ("", ""),
    ]

    init?(member: String, arguments: [DBusValue]) {
        func path(_ index: Int) -> String? {
            guard index < arguments.count, case .objectPath(let path) = arguments[index] else { return nil }
            return path
        }
        switch member {
        case "Release": self = .release
        case "Cancel": self = .cancel
        case "RequestPinCode":
            guard let device = path(0) else { return nil }
            self = .requestPinCode(device: device)
        case "DisplayPinCode":
            guard let device = path(0) else { return nil }
            self = .displayPinCode(device: device)
        case "RequestPasskey":
            guard let device = path(0) else { return nil }
            self = .requestPasskey(device: device)
        case "DisplayPasskey":
            guard let device = path(0), arguments.count >= 3, case .uint32(let passkey) = arguments[1],
                  case .uint16(let entered) = arguments[2] else { return nil }
            self = .displayPasskey(device: device, passkey: passkey, entered: entered)
        case "RequestConfirmation":
            guard let device = path(0), arguments.count >= 2, case .uint32(let passkey) = arguments[1] else { return nil }
            self = .requestConfirmation(device: device, passkey: passkey)
        case "RequestAuthorization":
            guard let device = path(0) else { return nil }
            self = .requestAuthorization(device: device)
        case "AuthorizeService":
            guard let device = path(0), arguments.count >= 2, case .string(let uuid) = arguments[1] else { return nil }
            self = .authorizeService(device: device, uuid: uuid)
        default:
            return nil
        }
    }

    /// The device the request is about; nil for Cancel and Release.
    var device: String? {
        switch self {
        case .requestPinCode(let device), .displayPinCode(let device), .requestPasskey(let device),
             .displayPasskey(let device, _, _), .requestConfirmation(let device, _),
             .requestAuthorization(let device), .authorizeService(let device, _):
            return device
        case .cancel, .release:
            return nil
        }
    }
}
