/// Which signals a subscription wants. The same rule goes to the bus (`AddMatch`, so the daemon
/// routes them to us) and filters in Swift (so one subscription does not see another's signals).
public struct DBusMatchRule: Sendable, Equatable {
    /// A unique name (`:1.7`) or a well-known name (`org.bluez`). Signals carry the sender's unique
    /// name, so for a well-known name the connection tracks its current owner (`DBusNameOwners`)
    /// and delivers only that owner's signals; none while the name has no owner.
    public var sender: String?
    public var path: String?
    /// Signals at `pathNamespace` or below it.
    public var pathNamespace: String?
    public var interface: String?
    public var member: String?

    public init(sender: String? = nil, path: String? = nil, pathNamespace: String? = nil,
                interface: String? = nil, member: String? = nil) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
    }

    /// The rule in the bus's text syntax. Values are quoted; a quote inside a value cannot be
    /// expressed in the syntax, so such rules are refused.
    func busRule() throws -> String {
        var parts = ["type='signal'"]
        for (key, value) in [("sender", sender), ("path", path), ("path_namespace", pathNamespace),
                             ("interface", interface), ("member", member)] {
            guard let value else { continue }
            guard !value.contains("'"), !value.contains(","), !value.contains("\\") else {
                throw DBusError.invalidArgument("match rule value \(value)")
            }
            parts.append("\(key)='\(value)'")
        }
        return parts.joined(separator: ",")
    }

    /// Whether a received signal satisfies the rule. `senderOwner` is the unique name `sender`
    /// stands for now (itself for a unique name; nil when a well-known name has no owner).
    func matches(_ signal: DBusSignal, senderOwner: String?) -> Bool {
        if sender != nil, signal.sender != senderOwner { return false }
        if let path, signal.path != path { return false }
        if let pathNamespace, pathNamespace != "/",
           signal.path != pathNamespace, !signal.path.hasPrefix(pathNamespace + "/") { return false }
        if let interface, signal.interface != interface { return false }
        if let member, signal.member != member { return false }
        return true
    }
}
