/// A signal as it arrived: who sent it, from which object, and its decoded arguments.
public struct DBusSignal: Sendable, Equatable {
    /// The sender's unique bus name (`:1.42`); empty for signals libdbus makes locally.
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(sender: String, path: String, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}
