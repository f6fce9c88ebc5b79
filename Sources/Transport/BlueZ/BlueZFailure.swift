import DBusBinding
import Transport

/// What a failed call to bluetoothd means for us, read from the D-Bus error name and, where BlueZ
/// 5.66 reuses one name for several causes, from its message text (bluez-dbus.md §1.3, §1.6).
/// Pure: the connector, the link and `BlueZError` decide what to do with each case.
enum BlueZFailure: Equatable, Sendable {
    /// `org.bluez` has no owner: ServiceUnknown, NameHasNoOwner.
    case bluetoothdGone
    /// The bus policy refused: AccessDenied; `org.bluez.Error.NotAuthorized` outside GATT.
    case accessDenied(String)
    /// `org.bluez.Error.NotReady`: the adapter is powered off.
    case notReady
    /// A connect attempt that may succeed if repeated: `le-connection-abort-by-local` and friends,
    /// "Operation already in progress", `br-connection-canceled`, InProgress.
    case retryableConnect(String)
    /// The object is gone (UnknownObject, UnknownMethod for a vanished interface, DoesNotExist).
    case objectGone
    /// The device is not connected (Failed "Not connected", NotConnected).
    case notConnected
    /// A GATT operation of ours is already running on that characteristic (InProgress "In Progress").
    case inProgress
    /// `NotPermitted "Write acquired"` / `"Notify acquired"`: someone holds the fd.
    case acquired
    /// The device answered with an ATT error (BlueZ maps them to names, GC `create_gatt_dbus_error`).
    case attError(ATTError)
    /// `org.bluez.Error.NotSupported` (flags missing, or ATT "request not supported").
    case notSupported
    /// The bus connection broke or was closed.
    case busLost
    /// No reply in time.
    case timedOut
    /// The calling task was cancelled.
    case cancelled
    /// Anything else, as text with the error name.
    case other(String)

    /// Which kind of call failed: `NotAuthorized` means an ATT authorization error on a GATT
    /// operation, but a policy refusal elsewhere.
    enum Context: Sendable { case adapter, connect, gatt }

    /// The LE/BR connection failure strings of BlueZ ≥ 5.62 (src/error.h) worth another attempt,
    /// plus the older strerror texts for the same errnos.
    static let retryableConnectMessages: [String] = [
        "le-connection-abort-by-local", "le-connection-abort-by-remote", "le-connection-timeout",
        "le-connection-busy", "le-connection-create-socket", "le-connection-link-layer-protocol-error",
        "le-connection-gatt-browsing", "le-connection-unknown", "br-connection-canceled",
        "Operation already in progress", "Software caused connection abort", "Connection timed out",
        "Connection reset by peer", "Device or resource busy", "In Progress",
    ]

    init(_ error: DBusError, context: Context = .adapter) {
        switch error {
        case .remote(let name, let message):
            self = Self.classify(name: name, message: message, context: context)
        case .library(let name, let message):
            self = Self.classify(name: name, message: message, context: context)
        case .disconnected, .closed: self = .busLost
        case .timedOut: self = .timedOut
        case .cancelled: self = .cancelled
        case .invalidArgument, .malformed, .outOfMemory: self = .other(error.description)
        }
    }

    private static func classify(name: String, message: String, context: Context) -> BlueZFailure {
        let text = message.isEmpty ? name : "\(name): \(message)"
        let bluez = "org.bluez.Error."
        switch name {
        case DBusErrorName.serviceUnknown, DBusErrorName.nameHasNoOwner:
            return .bluetoothdGone
        // The bus tried to start bluetoothd on demand and could not (Spawn.ChildExited, …).
        case let name where name.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            return .bluetoothdGone
        case DBusErrorName.accessDenied:
            return .accessDenied(text)
        case DBusErrorName.unknownObject, DBusErrorName.unknownMethod, DBusErrorName.unknownInterface,
             bluez + "DoesNotExist":
            return .objectGone
        case DBusErrorName.noReply:
            return .timedOut
        case "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NoServer":
            return .busLost
        case bluez + "NotReady":
            return .notReady
        case bluez + "NotConnected":
            return .notConnected
        case bluez + "NotAuthorized":
            return context == .gatt ? .attError(ATTError(code: 0x08)) : .accessDenied(text)
        case bluez + "InProgress":
            return context == .connect ? .retryableConnect(text) : .inProgress
        case bluez + "NotSupported":
            return context == .gatt ? .attError(.requestNotSupported) : .notSupported
        case bluez + "NotPermitted":
            return notPermitted(message, text: text)
        case bluez + "InvalidArguments" where context == .gatt:
            if message == "Invalid offset" { return .attError(ATTError(code: 0x07)) }
            if message == "Invalid Length" { return .attError(.invalidAttributeValueLength) }
            return .other(text)
        case bluez + "Failed":
            return failed(message, text: text, context: context)
        default:
            return .other(text)
        }
    }

    private static func notPermitted(_ message: String, text: String) -> BlueZFailure {
        switch message {
        case "Write acquired", "Notify acquired": return .acquired
        case "Read not permitted": return .attError(.readNotPermitted)
        case "Write not permitted": return .attError(.writeNotPermitted)
        case "Not paired": return .attError(.insufficientAuthentication)
        default: return .other(text)
        }
    }

    private static func failed(_ message: String, text: String, context: Context) -> BlueZFailure {
        if message == "Not connected" { return .notConnected }
        if message.contains("adapter-not-powered") { return .notReady }
        if context == .connect, retryableConnectMessages.contains(where: { message.contains($0) }) {
            return .retryableConnect(text)
        }
        if let code = attCode(in: message) { return .attError(ATTError(code: code)) }
        return .other(text)
    }

    /// The NN of "Operation failed with ATT error: 0xNN".
    static func attCode(in message: String) -> UInt8? {
        let prefix = "Operation failed with ATT error: 0x"
        guard message.hasPrefix(prefix) else { return nil }
        let digits = message.dropFirst(prefix.count).prefix(2)
        return UInt8(digits, radix: 16)
    }
}
