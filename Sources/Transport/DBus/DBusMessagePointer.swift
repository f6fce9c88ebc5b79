internal import CDBus

/// Owns one `DBusMessage*` (a reference), unrefs it in `deinit`. Lives on the connection's owner
/// thread only: not Sendable.
final class DBusMessagePointer {
    private let raw: OpaquePointer

    /// Takes over a reference the caller owns.
    init(owning raw: OpaquePointer) {
        self.raw = raw
    }

    deinit {
        dbus_message_unref(raw)
    }

    func withUnsafeMessage<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try body(raw)
    }

    static func methodCall(destination: String?, path: String, interface: String?, member: String) throws -> DBusMessagePointer {
        if let destination { try LibDBus.checkBusName(destination) }
        try LibDBus.checkPath(path)
        if let interface { try LibDBus.checkInterface(interface) }
        try LibDBus.checkMember(member)
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else { throw DBusError.outOfMemory }
        return DBusMessagePointer(owning: raw)
    }

    static func signal(path: String, interface: String, member: String) throws -> DBusMessagePointer {
        try LibDBus.checkPath(path)
        try LibDBus.checkInterface(interface)
        try LibDBus.checkMember(member)
        guard let raw = dbus_message_new_signal(path, interface, member) else { throw DBusError.outOfMemory }
        return DBusMessagePointer(owning: raw)
    }

    func methodReturn() throws -> DBusMessagePointer {
        guard let reply = dbus_message_new_method_return(raw) else { throw DBusError.outOfMemory }
        return DBusMessagePointer(owning: reply)
    }

    /// An error reply; a name libdbus would refuse becomes `Failed` rather than a crash.
    func errorReply(name: String, message: String) throws -> DBusMessagePointer {
        let safeName = (try? LibDBus.checkErrorName(name)) != nil ? name : DBusErrorName.failed
        let safeMessage = String(message.unicodeScalars.filter { $0 != "\0" }.map(Character.init))
        guard let reply = dbus_message_new_error(raw, safeName, safeMessage) else { throw DBusError.outOfMemory }
        return DBusMessagePointer(owning: reply)
    }

    var type: Int32 { dbus_message_get_type(raw) }
    var sender: String { LibDBus.string(dbus_message_get_sender(raw)) ?? "" }
    var path: String { LibDBus.string(dbus_message_get_path(raw)) ?? "" }
    var interface: String { LibDBus.string(dbus_message_get_interface(raw)) ?? "" }
    var member: String { LibDBus.string(dbus_message_get_member(raw)) ?? "" }
    var errorName: String { LibDBus.string(dbus_message_get_error_name(raw)) ?? "" }
    var signature: String { LibDBus.string(dbus_message_get_signature(raw)) ?? "" }
    var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    func isSignal(interface: String, member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }

    /// Appends arguments; nothing is appended unless every value is valid (checked first, because
    /// libdbus aborts on some invalid input and writes corrupt messages on others).
    func append(_ values: [DBusValue]) throws {
        for value in values { try DBusMessageWriter.validate(value) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        for value in values { try DBusMessageWriter.append(value, to: &iterator) }
    }

    /// The message's wire bytes (serial set to 1 so the bytes load back).
    func marshal() throws -> [UInt8] {
        if dbus_message_get_serial(raw) == 0 { dbus_message_set_serial(raw, 1) }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else { throw DBusError.outOfMemory }
        defer { dbus_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(max(length, 0))))
    }

    /// A message from wire bytes; libdbus validates them as it would a message off the socket.
    static func demarshal(_ bytes: [UInt8]) throws -> DBusMessagePointer {
        let raw: OpaquePointer? = try LibDBus.withCError { error in
            bytes.withUnsafeBytes { buffer in
                dbus_message_demarshal(buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                                       Int32(clamping: buffer.count), error)
            }
        }
        guard let raw else { throw DBusError.malformed("message bytes not accepted") }
        return DBusMessagePointer(owning: raw)
    }

    /// Reads all arguments, checking each type as it goes.
    func arguments() throws -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
        return try DBusMessageReader.readAll(&iterator, depth: 0)
    }
}
