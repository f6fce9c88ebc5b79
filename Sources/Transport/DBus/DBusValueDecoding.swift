/// Typed reads of a `DBusValue` that never trust its shape: each accessor checks the case and throws
/// `DBusError.malformed` naming what was expected and what came, so a peer that sends the wrong
/// type gets an error, never a trap.
extension DBusValue {
    private func mismatch(_ expected: String) -> DBusError {
        .malformed("expected \(expected), got '\(signature)'")
    }

    public func asString() throws -> String {
        guard case .string(let value) = self else { throw mismatch("s") }
        return value
    }

    public func asObjectPath() throws -> String {
        guard case .objectPath(let value) = self else { throw mismatch("o") }
        return value
    }

    public func asBool() throws -> Bool {
        guard case .bool(let value) = self else { throw mismatch("b") }
        return value
    }

    public func asByte() throws -> UInt8 {
        guard case .byte(let value) = self else { throw mismatch("y") }
        return value
    }

    public func asInt16() throws -> Int16 {
        guard case .int16(let value) = self else { throw mismatch("n") }
        return value
    }

    public func asUInt16() throws -> UInt16 {
        guard case .uint16(let value) = self else { throw mismatch("q") }
        return value
    }

    public func asInt32() throws -> Int32 {
        guard case .int32(let value) = self else { throw mismatch("i") }
        return value
    }

    public func asUInt32() throws -> UInt32 {
        guard case .uint32(let value) = self else { throw mismatch("u") }
        return value
    }

    public func asUnixFD() throws -> DBusUnixFD {
        guard case .unixFD(let value) = self else { throw mismatch("h") }
        return value
    }

    /// The content of a variant (`v`).
    public func asVariant() throws -> DBusValue {
        guard case .variant(let value) = self else { throw mismatch("v") }
        return value
    }

    /// The elements of an array with the given element signature.
    public func asArray(of elementSignature: String) throws -> [DBusValue] {
        guard case .array(let element, let values) = self, element == elementSignature else {
            throw mismatch("a" + elementSignature)
        }
        return values
    }

    /// `ay` as bytes.
    public func asBytes() throws -> [UInt8] {
        try asArray(of: "y").map { try $0.asByte() }
    }

    /// `as` as strings.
    public func asStrings() throws -> [String] {
        try asArray(of: "s").map { try $0.asString() }
    }

    /// The entries of a dictionary with the given key and value signatures.
    public func asDict(key: String, value: String) throws -> [DBusDictEntry] {
        guard case .dict(let keySignature, let valueSignature, let entries) = self,
              keySignature == key, valueSignature == value else {
            throw mismatch("a{\(key)\(value)}")
        }
        return entries
    }

    /// `a{sv}` as name → value (variants unwrapped). A repeated key is malformed.
    public func asProperties() throws -> [String: DBusValue] {
        var result: [String: DBusValue] = [:]
        for entry in try asDict(key: "s", value: "v") {
            let name = try entry.key.asString()
            guard result.updateValue(try entry.value.asVariant(), forKey: name) == nil else {
                throw DBusError.malformed("property '\(name)' appears twice")
            }
        }
        return result
    }

    /// `a{sa{sv}}` as interface → properties.
    public func asInterfaces() throws -> [String: [String: DBusValue]] {
        var result: [String: [String: DBusValue]] = [:]
        for entry in try asDict(key: "s", value: "a{sv}") {
            let name = try entry.key.asString()
            guard result.updateValue(try entry.value.asProperties(), forKey: name) == nil else {
                throw DBusError.malformed("interface '\(name)' appears twice")
            }
        }
        return result
    }

    /// `a{oa{sa{sv}}}` (ObjectManager.GetManagedObjects) as path → interface → properties.
    public func asManagedObjects() throws -> [String: [String: [String: DBusValue]]] {
        var result: [String: [String: [String: DBusValue]]] = [:]
        for entry in try asDict(key: "o", value: "a{sa{sv}}") {
            let path = try entry.key.asObjectPath()
            guard result.updateValue(try entry.value.asInterfaces(), forKey: path) == nil else {
                throw DBusError.malformed("object '\(path)' appears twice")
            }
        }
        return result
    }
}

extension Array where Element == DBusValue {
    /// The argument at `index`, or `DBusError.malformed` when the message has fewer.
    public func argument(_ index: Int) throws -> DBusValue {
        guard indices.contains(index) else {
            throw DBusError.malformed("expected at least \(index + 1) arguments, got \(count)")
        }
        return self[index]
    }

    /// The signature of the whole argument list.
    public var dbusSignature: String { map(\.signature).joined() }
}
