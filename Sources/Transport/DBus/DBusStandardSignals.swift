/// `org.freedesktop.DBus.Properties.PropertiesChanged(s interface, a{sv} changed, as invalidated)`.
public struct DBusPropertiesChanged: Sendable, Equatable {
    public var path: String
    public var interface: String
    public var changed: [String: DBusValue]
    public var invalidated: [String]

    /// Decodes the signal; a signal of another member or shape throws `DBusError.malformed`.
    public init(_ signal: DBusSignal) throws {
        guard signal.interface == DBusStandardInterface.properties, signal.member == "PropertiesChanged" else {
            throw DBusError.malformed("\(signal.interface).\(signal.member) is not PropertiesChanged")
        }
        path = signal.path
        interface = try signal.arguments.argument(0).asString()
        changed = try signal.arguments.argument(1).asProperties()
        invalidated = try signal.arguments.argument(2).asStrings()
    }
}

/// `org.freedesktop.DBus.ObjectManager.InterfacesAdded(o path, a{sa{sv}} interfaces)`.
public struct DBusInterfacesAdded: Sendable, Equatable {
    public var object: String
    public var interfaces: [String: [String: DBusValue]]

    public init(_ signal: DBusSignal) throws {
        guard signal.interface == DBusStandardInterface.objectManager, signal.member == "InterfacesAdded" else {
            throw DBusError.malformed("\(signal.interface).\(signal.member) is not InterfacesAdded")
        }
        object = try signal.arguments.argument(0).asObjectPath()
        interfaces = try signal.arguments.argument(1).asInterfaces()
    }
}

/// `org.freedesktop.DBus.ObjectManager.InterfacesRemoved(o path, as interfaces)`.
public struct DBusInterfacesRemoved: Sendable, Equatable {
    public var object: String
    public var interfaces: [String]

    public init(_ signal: DBusSignal) throws {
        guard signal.interface == DBusStandardInterface.objectManager, signal.member == "InterfacesRemoved" else {
            throw DBusError.malformed("\(signal.interface).\(signal.member) is not InterfacesRemoved")
        }
        object = try signal.arguments.argument(0).asObjectPath()
        interfaces = try signal.arguments.argument(1).asStrings()
    }
}

/// Interface names of the standard interfaces we implement or call.
public enum DBusStandardInterface {
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let bus = "org.freedesktop.DBus"
    static let local = "org.freedesktop.DBus.Local"
}
