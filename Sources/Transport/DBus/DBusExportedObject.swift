/// An incoming method call on one of our exported objects.
public struct DBusMethodCall: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
    /// Where this call stands among the calls the connection handed to handlers: 1, 2, 3, … in
    /// arrival order, without gaps. Handlers run concurrently (each in its own task) and may start
    /// out of order; one that must see calls in arrival order (Write Commands, which bluetoothd
    /// forwards without waiting for replies) puts them back in order by this number.
    public var arrival: UInt64

    /// Public so handlers can be unit-tested without a bus.
    public init(sender: String, path: String, interface: String, member: String, arguments: [DBusValue],
                arrival: UInt64 = 0) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.arrival = arrival
    }
}

/// Handles one method: returns the reply's arguments, or throws. A thrown `DBusError.remote` goes
/// back under its own name; anything else becomes `org.freedesktop.DBus.Error.Failed`. Handlers are
/// async so a reply can wait for other work; they run outside the connection's owner thread.
public typealias DBusMethodHandler = @Sendable (DBusMethodCall) async throws -> [DBusValue]

/// What a method takes and returns, as D-Bus signatures ("a{sv}", "ay", "" for nothing). Only
/// introspection reads it: calls are not checked against it.
public struct DBusMethodSignature: Sendable, Equatable {
    public var arguments: String
    public var reply: String

    public init(arguments: String = "", reply: String = "") {
        self.arguments = arguments
        self.reply = reply
    }
}

/// One interface of an exported object: its methods and its (read-only) properties.
public struct DBusExportedInterface: Sendable {
    public var name: String
    public var methods: [String: DBusMethodHandler]
    public var properties: [String: DBusValue]
    /// Method name → signatures, for `Introspect`; a method without one is listed without arguments.
    public var signatures: [String: DBusMethodSignature]

    public init(name: String, methods: [String: DBusMethodHandler] = [:], properties: [String: DBusValue] = [:],
                signatures: [String: DBusMethodSignature] = [:]) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signatures = signatures
    }
}

/// An object we serve at `path`. `org.freedesktop.DBus.Properties` (Get, GetAll) is answered from
/// the interfaces' properties, and `org.freedesktop.DBus.Introspectable` from the whole export
/// (`DBusIntrospection`); the object does not list either itself.
public struct DBusExportedObject: Sendable {
    public var path: String
    public var interfaces: [String: DBusExportedInterface]

    public init(path: String, interfaces: [DBusExportedInterface]) {
        self.path = path
        self.interfaces = Dictionary(interfaces.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// interface → properties, as GetManagedObjects and InterfacesAdded carry them.
    var propertyTable: [String: [String: DBusValue]] {
        interfaces.mapValues(\.properties)
    }
}
