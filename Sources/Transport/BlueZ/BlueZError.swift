import DBusBinding

/// Why BlueZ could not be used at all, before any device: every case is exit 5 in the CLI, and
/// `description` is ONE line saying what happened and the fix.
public enum BlueZError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No system bus socket (or it refused us before bluetoothd was asked anything).
    case busUnavailable(String)
    /// `org.bluez` has no owner on the bus (ServiceUnknown / NameHasNoOwner).
    case bluetoothdNotRunning
    /// The bus policy refused the call (AccessDenied, `org.bluez.Error.NotAuthorized`).
    case accessDenied(String)
    /// bluetoothd runs but has no `Adapter1` at all.
    case noAdapter
    /// The adapter asked for (`--adapter hci7`) does not exist; `available` lists those that do.
    case adapterNotFound(String, available: [String])
    /// The adapter exists but is not powered (or is rfkill-blocked): `NotReady` from BlueZ.
    case adapterPoweredOff(String)
    /// StartDiscovery refused (InProgress from another session, NotReady, Failed): message + fix.
    case discoveryFailed(String)
    /// Anything else BlueZ said, with the D-Bus error name.
    case failed(String)

    public var description: String {
        switch self {
        case .busUnavailable(let detail):
            return "the D-Bus system bus is not reachable (\(detail)); start it with 'systemctl start dbus'."
        case .bluetoothdNotRunning:
            return "bluetoothd is not running (org.bluez is not on the system bus); start it with 'sudo systemctl start bluetooth'."
        case .accessDenied(let detail):
            return "BlueZ refused access (\(detail)); run as root or add your user to the 'bluetooth' group (D-Bus policy)."
        case .noAdapter:
            return "no Bluetooth adapter found; connect one ('bluetoothctl list' shows none)."
        case .adapterNotFound(let name, let available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "adapter \(name) not found (available: \(list)); pick one with --adapter."
        case .adapterPoweredOff(let name):
            return "adapter \(name) is powered off; run 'bluetoothctl power on' (or 'rfkill unblock bluetooth')."
        case .discoveryFailed(let detail):
            return "BlueZ could not start scanning (\(detail)); stop other scans ('bluetoothctl scan off') or power-cycle the adapter, then retry."
        case .failed(let detail):
            return "BlueZ failed: \(detail); check 'systemctl status bluetooth' and retry."
        }
    }
}

extension BlueZError {
    /// The adapter-level meaning of a failed call to bluetoothd. `adapter` names the adapter for
    /// `NotReady`; `discovery` marks StartDiscovery, whose own refusals become `.discoveryFailed`.
    static func from(_ error: DBusError, adapter: String = "the adapter", discovery: Bool = false) -> BlueZError {
        switch BlueZFailure(error) {
        case .bluetoothdGone: return .bluetoothdNotRunning
        case .accessDenied(let detail): return .accessDenied(detail)
        case .notReady: return .adapterPoweredOff(adapter)
        case .busLost: return .busUnavailable(error.description)
        default: return discovery ? .discoveryFailed(error.description) : .failed(error.description)
        }
    }

    /// What a failure to open the bus connection means: a policy refusal or a missing bus.
    static func fromBusConnect(_ error: any Error) -> BlueZError {
        if let error = error as? DBusError {
            let name: String?
            switch error {
            case .remote(let remote, _), .library(let remote, _): name = remote
            default: name = nil
            }
            if name == DBusErrorName.accessDenied { return .accessDenied(error.description) }
            return .busUnavailable(error.description)
        }
        return .busUnavailable(String(describing: error))
    }
}
