/// Who owns each well-known name that a subscription names as its sender, as this connection last
/// heard from the bus. Signals carry the sender's unique name (`:1.7`), never the well-known one, so
/// a rule with `sender: "org.bluez"` is checked in Swift against the name's current owner: the bus
/// routes one client's signals to every subscription its match rules let through, so without this a
/// look-alike signal from another client (or another service) would reach the subscription.
///
/// Owned by the connection's owner thread. Ownership changes arrive as NameOwnerChanged signals in
/// the same ordered stream as every other signal, so a signal is always judged against the owner
/// the bus had when it routed that signal.
struct DBusNameOwners {
    private enum Watch {
        /// AddMatch or GetNameOwner still on its way: these callers wait for the first answer.
        case starting([CheckedContinuation<Void, any Error>])
        case ready
    }

    static let noOwnerError = DBusErrorName.nameHasNoOwner

    private var watches: [String: Watch] = [:]
    private var owners: [String: String] = [:]

    /// Whether no name is tracked (then no signal needs reading for owner changes).
    var isEmpty: Bool { watches.isEmpty }

    /// The well-known name whose owner must be tracked for a rule's `sender`, or nil: no sender, a
    /// unique name (compared as is), or the bus itself (its own signals carry `org.freedesktop.DBus`).
    static func trackedName(_ sender: String?) -> String? {
        guard let sender, !sender.hasPrefix(":"), sender != DBusStandardInterface.bus else { return nil }
        return sender
    }

    /// The bus match rule for changes of `name`'s owner (only the bus can send as its own name).
    static func ownerChangeRule(_ name: String) throws -> String {
        try LibDBus.checkBusName(name)
        return "type='signal',sender='\(DBusStandardInterface.bus)',path='/org/freedesktop/DBus',"
            + "interface='\(DBusStandardInterface.bus)',member='NameOwnerChanged',arg0='\(name)'"
    }

    /// The unique name a rule's `sender` stands for now; nil when the rule names no sender or the
    /// name has no owner (or its owner is not known yet).
    func resolve(_ sender: String?) -> String? {
        guard let sender else { return nil }
        guard let name = Self.trackedName(sender) else { return sender }
        return owners[name]
    }

    enum Start { case known, waiting, begin }

    /// Registers a caller that needs `name`'s owner known: `.known` (resume it now), `.waiting`
    /// (it is resumed by `settle`/`fail`), or `.begin` (the same, and the caller starts the lookup).
    mutating func watch(_ name: String, _ waiter: CheckedContinuation<Void, any Error>) -> Start {
        switch watches[name] {
        case .ready:
            return .known
        case .starting(let waiters):
            watches[name] = .starting(waiters + [waiter])
            return .waiting
        case nil:
            watches[name] = .starting([waiter])
            return .begin
        }
    }

    /// GetNameOwner answered (nil: NameHasNoOwner). Changes seen before this answer were sent
    /// before it, so the answer is the newer fact.
    mutating func settle(_ name: String, owner: String?) {
        guard case .starting(let waiters) = watches[name] else { return }
        watches[name] = .ready
        owners[name] = owner
        for waiter in waiters { waiter.resume() }
    }

    /// The lookup failed: its callers get the error, and the next subscription tries again.
    mutating func fail(_ name: String, _ error: any Error) {
        guard case .starting(let waiters) = watches.removeValue(forKey: name) else { return }
        owners[name] = nil
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// The connection is gone: every waiting caller gets `error`.
    mutating func failAll(_ error: any Error) {
        for name in Array(watches.keys) { fail(name, error) }
        watches.removeAll()
        owners.removeAll()
    }

    /// Applies a NameOwnerChanged from the bus for a watched name; other signals are ignored. The
    /// body is checked (three strings), as nothing that arrives is trusted.
    mutating func note(_ signal: DBusSignal) {
        guard signal.sender == DBusStandardInterface.bus, signal.interface == DBusStandardInterface.bus,
              signal.member == "NameOwnerChanged", signal.path == "/org/freedesktop/DBus",
              signal.arguments.count == 3,
              case .string(let name) = signal.arguments[0], case .string(let newOwner) = signal.arguments[2],
              watches[name] != nil else { return }
        owners[name] = newOwner.isEmpty ? nil : newOwner
    }
}
