/// `org.freedesktop.DBus.Properties` as our exported objects answer it. Errors carry the names
/// the specification and BlueZ use, so a caller (bluetoothd, busctl) sees the usual ones.
extension DBusExportedObject {
    /// org.freedesktop.DBus.Properties on an exported object: Get and GetAll; properties are read-only.
    func answerProperties(member: String, arguments: [DBusValue]) throws -> [DBusValue] {
        func interface() throws -> DBusExportedInterface {
            let name: String
            do { name = try arguments.argument(0).asString() } catch {
                throw DBusError.remote(name: DBusErrorName.invalidArgs, message: "\(error)")
            }
            guard let exported = interfaces[name] else {
                throw DBusError.remote(name: DBusErrorName.unknownInterface, message: "no interface \(name) at \(path)")
            }
            return exported
        }
        switch member {
        case "Get":
            let exported = try interface()
            guard let name = try? arguments.argument(1).asString() else {
                throw DBusError.remote(name: DBusErrorName.invalidArgs, message: "Get takes (ss)")
            }
            guard let value = exported.properties[name] else {
                throw DBusError.remote(name: DBusErrorName.unknownProperty, message: "no property \(name) in \(exported.name)")
            }
            return [.variant(value)]
        case "GetAll":
            return [.properties(try interface().properties)]
        case "Set":
            throw DBusError.remote(name: DBusErrorName.propertyReadOnly, message: "properties are read-only")
        default:
            throw DBusError.remote(name: DBusErrorName.unknownMethod, message: "no method \(member) in Properties")
        }
    }
}
