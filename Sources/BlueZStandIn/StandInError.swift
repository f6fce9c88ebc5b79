import DBusBinding
import Transport

/// The errors bluetoothd 5.66 answers with, by name and exact text (src/error.c; bluez-dbus.md §1.6).
enum StandInError {
    private static let prefix = "org.bluez.Error."

    static let notReady = DBusError.remote(name: prefix + "NotReady", message: "Resource Not Ready")
    static let invalidArguments = DBusError.remote(name: prefix + "InvalidArguments",
                                                   message: "Invalid arguments in method call")
    /// `btd_error_busy`: StartDiscovery/StopDiscovery.
    static let busy = DBusError.remote(name: prefix + "InProgress", message: "Operation already in progress")
    /// `btd_error_in_progress`: GATT read/write/notify.
    static let inProgress = DBusError.remote(name: prefix + "InProgress", message: "In Progress")
    static let notSupported = DBusError.remote(name: prefix + "NotSupported", message: "Operation is not supported")
    static let notConnected = DBusError.remote(name: prefix + "NotConnected", message: "Not Connected")
    static let doesNotExist = DBusError.remote(name: prefix + "DoesNotExist", message: "Does Not Exist")
    static let alreadyExists = DBusError.remote(name: prefix + "AlreadyExists", message: "Already Exists")

    // Device1.Pair outcomes (device.c `new_authentication_return`).
    static let authenticationFailed = DBusError.remote(name: prefix + "AuthenticationFailed",
                                                       message: "Authentication Failed")
    static let authenticationRejected = DBusError.remote(name: prefix + "AuthenticationRejected",
                                                         message: "Authentication Rejected")
    static let authenticationCanceled = DBusError.remote(name: prefix + "AuthenticationCanceled",
                                                         message: "Authentication Canceled")
    static let authenticationTimeout = DBusError.remote(name: prefix + "AuthenticationTimeout",
                                                        message: "Authentication Timeout")

    static func failed(_ message: String) -> DBusError {
        .remote(name: prefix + "Failed", message: message)
    }

    static func notPermitted(_ message: String) -> DBusError {
        .remote(name: prefix + "NotPermitted", message: message)
    }

    static func invalidArguments(_ message: String) -> DBusError {
        .remote(name: prefix + "InvalidArguments", message: message)
    }

    /// GC `create_gatt_dbus_error`: an ATT error from the device as BlueZ names it.
    static func gatt(_ error: ATTError) -> DBusError {
        switch error.code {
        case 0x02: return notPermitted("Read not permitted")
        case 0x03: return notPermitted("Write not permitted")
        case 0x05, 0x0F, 0x0C: return notPermitted("Not paired")
        case 0x07: return invalidArguments("Invalid offset")
        case 0x0D: return invalidArguments("Invalid Length")
        case 0x08: return .remote(name: prefix + "NotAuthorized", message: "Operation Not Authorized")
        case 0x06: return notSupported
        default:
            let hex = String(error.code, radix: 16)
            return failed("Operation failed with ATT error: 0x" + (hex.count < 2 ? "0" + hex : hex))
        }
    }

    /// A `Connect` refusal, or a forced `Acquire*` refusal.
    static func refusal(_ refusal: BlueZStandInRefusal, member: String) -> DBusError {
        switch refusal {
        case .notSupported: return notSupported
        case .failed(let message): return failed(message)
        case .unknownMethod:
            return .remote(name: DBusErrorName.unknownMethod,
                           message: "Method \"\(member)\" with signature \"a{sv}\" on interface \"org.bluez.GattCharacteristic1\" doesn't exist")
        }
    }
}
