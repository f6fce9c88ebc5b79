/// Flags of `org.freedesktop.DBus.RequestName` (`DBUS_NAME_FLAG_*`).
public struct DBusNameFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let allowReplacement = DBusNameFlags(rawValue: 1)
    public static let replaceExisting = DBusNameFlags(rawValue: 2)
    public static let doNotQueue = DBusNameFlags(rawValue: 4)
}

/// The bus's answer to RequestName (`DBUS_REQUEST_NAME_REPLY_*`).
public enum DBusRequestNameReply: UInt32, Sendable {
    case primaryOwner = 1
    case inQueue = 2
    case exists = 3
    case alreadyOwner = 4
}
