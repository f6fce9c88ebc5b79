import DBusBinding
import Transport

/// Why `BlueZPeripheral` could not start serving, or stopped by itself. Each description is one
/// line that says what to do. Everything but `.options` is the BlueZ side being unavailable
/// (`dfu sim` exits 5 for those, 2 for `.options`).
public enum BlueZServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The options describe no device (nothing was registered).
    case options(SimOptionsError)
    /// No connection to the system bus (no daemon, or `DBUS_SYSTEM_BUS_ADDRESS` points nowhere).
    case busUnreachable(String)
    /// Nobody owns `org.bluez` on the bus.
    case bluetoothdNotRunning
    /// The bus's policy refused a call to bluetoothd.
    case accessDenied(String)
    /// No such adapter; `available` lists the ones there are.
    case noAdapter(String, available: [String])
    case poweredOff(String)
    /// The adapter lacks GattManager1 or LEAdvertisingManager1 (not an LE controller).
    case notSupported(adapter: String, missing: String)
    /// bluetoothd refused a registration (`operation` is the method).
    case refused(operation: String, DBusError)
    /// A call to bluetoothd failed in an unexpected way.
    case bluez(operation: String, DBusError)
    /// While serving: bluetoothd left the bus.
    case bluetoothdStopped
    /// While serving: the adapter was removed.
    case adapterRemoved(String)
    /// While serving: the connection to the bus broke.
    case busLost

    public var description: String {
        switch self {
        case .options(let error):
            return error.description
        case .busUnreachable(let reason):
            return "cannot reach the system D-Bus (\(reason)): is dbus running? "
                + "(DBUS_SYSTEM_BUS_ADDRESS overrides where to look)"
        case .bluetoothdNotRunning:
            return "bluetoothd is not running: start it (sudo systemctl start bluetooth)"
        case .accessDenied(let reason):
            return "bluetoothd refused access (\(reason)): run as root or as a member of the 'bluetooth' group"
        case .noAdapter(let adapter, let available):
            let others = available.isEmpty ? "no Bluetooth adapter is present"
                : "adapters present: " + available.joined(separator: ", ")
            return "no Bluetooth adapter \(adapter) (\(others)): pick one with --serve bluez:hciN"
        case .poweredOff(let adapter):
            return "Bluetooth adapter \(adapter) is powered off: power it on (bluetoothctl power on)"
        case .notSupported(let adapter, let missing):
            return "adapter \(adapter) cannot act as a BLE peripheral (bluetoothd offers no \(missing) on it)"
        case .refused(let operation, let error):
            return "bluetoothd refused \(operation): \(error)"
        case .bluez(let operation, let error):
            return "\(operation) failed: \(error)"
        case .bluetoothdStopped:
            return "bluetoothd stopped: start it again (sudo systemctl start bluetooth) and rerun dfu sim"
        case .adapterRemoved(let adapter):
            return "Bluetooth adapter \(adapter) was removed"
        case .busLost:
            return "the connection to the system D-Bus was lost"
        }
    }

    /// The error for a failed call to bluetoothd: the causes every call shares (no bluetoothd, a
    /// policy refusal, a broken bus), else `.bluez`.
    static func classify(_ error: any Error, operation: String) -> BlueZServeError {
        guard let error = error as? DBusError else {
            return .bluez(operation: operation, .malformed("\(error)"))
        }
        switch error.remoteName {
        case DBusErrorName.serviceUnknown?, DBusErrorName.nameHasNoOwner?:
            return .bluetoothdNotRunning
        case DBusErrorName.accessDenied?:
            return .accessDenied(error.description)
        default:
            break
        }
        if error == .disconnected || error == .closed { return .busLost }
        return .bluez(operation: operation, error)
    }
}
