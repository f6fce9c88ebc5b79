internal import CDBus

/// The C edge of libdbus shared by the owner classes: turning a `DBusError` into a Swift error at
/// the call, and the name checks libdbus would otherwise enforce by aborting the process (its
/// `_dbus_return_val_if_fail` checks are fatal by default), so every string we pass is checked here
/// first. Files that touch libdbus: this one, `DBusMessagePointer.swift`, `DBusMessageWriter.swift`,
/// `DBusMessageReader.swift`, `DBusConnectionPointer.swift`.
enum LibDBus {
    /// Runs `body` with an initialised C error and throws it as `DBusError.library` when set.
    static func withCError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T) throws -> T {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let result = body(&error)
        if dbus_error_is_set(&error) != 0 {
            throw DBusError.library(name: string(error.name) ?? "unknown", message: string(error.message) ?? "")
        }
        return result
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// libdbus is thread-safe since 1.7; initialising threads is still recommended and harmless.
    static let threadsInitialised: Bool = dbus_threads_init_default() != 0

    private static func check(_ value: String, _ what: String,
                              _ validate: (UnsafePointer<CChar>, UnsafeMutablePointer<CDBus.DBusError>) -> dbus_bool_t) throws {
        guard !value.utf8.contains(0) else { throw DBusError.invalidArgument("\(what) '\(value)' contains NUL") }
        let valid = (try? withCError { error in value.withCString { validate($0, error) } }) ?? 0
        guard valid != 0 else { throw DBusError.invalidArgument("\(what) '\(value)'") }
    }

    static func checkPath(_ value: String) throws { try check(value, "object path", dbus_validate_path) }
    static func checkInterface(_ value: String) throws { try check(value, "interface name", dbus_validate_interface) }
    static func checkMember(_ value: String) throws { try check(value, "member name", dbus_validate_member) }
    static func checkBusName(_ value: String) throws { try check(value, "bus name", dbus_validate_bus_name) }
    static func checkErrorName(_ value: String) throws { try check(value, "error name", dbus_validate_error_name) }
    static func checkText(_ value: String) throws { try check(value, "string", dbus_validate_utf8) }

    /// One complete type, within libdbus's depth limits.
    static func checkSingleSignature(_ value: String) throws {
        try check(value, "signature", { pointer, error in dbus_signature_validate_single(pointer, error) })
    }

    /// Any sequence of complete types (a `g` value).
    static func checkSignature(_ value: String) throws {
        try check(value, "signature", { pointer, error in dbus_signature_validate(pointer, error) })
    }
}
