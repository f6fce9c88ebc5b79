/// Every way a D-Bus operation fails. Remote errors keep the name the peer sent
/// (`org.bluez.Error.NotReady`, `org.freedesktop.DBus.Error.ServiceUnknown`, …) so callers can
/// switch on it; local failures say which side is at fault.
public enum DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer (or the bus daemon) replied with a D-Bus error.
    case remote(name: String, message: String)
    /// No reply came before the caller's deadline.
    case timedOut(member: String, after: Duration)
    /// The connection to the bus broke (daemon gone, socket closed); pending calls fail with this.
    case disconnected
    /// The connection was closed by us.
    case closed
    /// The caller's task was cancelled while waiting.
    case cancelled
    /// We refused to build a message: a name, path, signature or value is not valid D-Bus.
    case invalidArgument(String)
    /// A message's shape was not what the caller expected (wrong types, missing arguments).
    case malformed(String)
    /// libdbus reported an error at a call (connect, register); name and message are libdbus's.
    case library(name: String, message: String)
    /// libdbus could not allocate memory.
    case outOfMemory

    /// The D-Bus error name of a remote error, nil otherwise.
    public var remoteName: String? {
        if case .remote(let name, _) = self { return name }
        return nil
    }

    public var description: String {
        switch self {
        case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .timedOut(let member, let after): "no reply to \(member) within \(after)"
        case .disconnected: "the D-Bus connection was lost (is the bus daemon running?)"
        case .closed: "the D-Bus connection is closed"
        case .cancelled: "the D-Bus call was cancelled"
        case .invalidArgument(let what): "invalid D-Bus argument: \(what)"
        case .malformed(let what): "unexpected D-Bus message shape: \(what)"
        case .library(let name, let message): "libdbus: \(name): \(message)"
        case .outOfMemory: "libdbus ran out of memory"
        }
    }
}

/// Well-known error names we produce or test for.
public enum DBusErrorName {
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
}
