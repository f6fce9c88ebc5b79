internal import CDBus

/// Reads a message's arguments into `DBusValue`s with libdbus's iterator calls. libdbus has already
/// validated the wire bytes; this still checks every type code it is handed and fails with
/// `DBusError.malformed` on anything it does not know, so a surprise never traps.
enum DBusMessageReader {
    static func readAll(_ iterator: inout DBusMessageIter, depth: Int) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != DBusTypeCode.invalid {
            values.append(try read(&iterator, depth: depth))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    /// The value under the iterator (the iterator is not advanced).
    static func read(_ iterator: inout DBusMessageIter, depth: Int) throws -> DBusValue {
        guard depth <= 64 else { throw DBusError.malformed("nesting deeper than 64") }
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case DBusTypeCode.byte: return .byte(basic(&iterator).byt)
        case DBusTypeCode.boolean: return .bool(basic(&iterator).bool_val != 0)
        case DBusTypeCode.int16: return .int16(basic(&iterator).i16)
        case DBusTypeCode.uint16: return .uint16(basic(&iterator).u16)
        case DBusTypeCode.int32: return .int32(basic(&iterator).i32)
        case DBusTypeCode.uint32: return .uint32(basic(&iterator).u32)
        case DBusTypeCode.int64: return .int64(Int64(basic(&iterator).i64))
        case DBusTypeCode.uint64: return .uint64(UInt64(basic(&iterator).u64))
        case DBusTypeCode.double: return .double(basic(&iterator).dbl)
        case DBusTypeCode.string: return .string(try text(&iterator))
        case DBusTypeCode.objectPath: return .objectPath(try text(&iterator))
        case DBusTypeCode.signature: return .signature(try text(&iterator))
        case DBusTypeCode.unixFD:
            // libdbus returns a fresh dup (close-on-exec) that is ours to close: own it at once.
            let fd = basic(&iterator).fd
            guard fd >= 0 else { throw DBusError.malformed("unix fd argument without a descriptor") }
            return .unixFD(DBusUnixFD(owning: fd))
        case DBusTypeCode.array:
            return try array(&iterator, depth: depth)
        case DBusTypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            let fields = try readAll(&sub, depth: depth + 1)
            guard !fields.isEmpty else { throw DBusError.malformed("empty struct") }
            return .structure(fields)
        case DBusTypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            let inner = try readAll(&sub, depth: depth + 1)
            guard inner.count == 1, let value = inner.first else {
                throw DBusError.malformed("variant holding \(inner.count) values")
            }
            return .variant(value)
        default:
            throw DBusError.malformed("unknown type code \(type)")
        }
    }

    private static func basic(_ iterator: inout DBusMessageIter) -> DBusBasicValue {
        var value = DBusBasicValue()
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func text(_ iterator: inout DBusMessageIter) throws -> String {
        guard let pointer = basic(&iterator).str, let value = LibDBus.string(pointer) else {
            throw DBusError.malformed("string argument without text")
        }
        return value
    }

    /// The signature of the value under the iterator, e.g. `a{sv}`.
    private static func signature(_ iterator: inout DBusMessageIter) throws -> String {
        guard let raw = dbus_message_iter_get_signature(&iterator) else { throw DBusError.outOfMemory }
        defer { dbus_free(raw) }
        return LibDBus.string(raw) ?? ""
    }

    private static func array(_ iterator: inout DBusMessageIter, depth: Int) throws -> DBusValue {
        let full = try signature(&iterator)
        guard full.hasPrefix("a"), full.count >= 2 else { throw DBusError.malformed("array signature '\(full)'") }
        let element = String(full.dropFirst())
        let elementType = dbus_message_iter_get_element_type(&iterator)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &sub)

        if elementType == DBusTypeCode.byte {
            // Byte arrays (GATT values) in one copy rather than one call per byte.
            var base: UnsafeRawPointer?
            var count: Int32 = 0
            if dbus_message_iter_get_arg_type(&sub) != DBusTypeCode.invalid {
                dbus_message_iter_get_fixed_array(&sub, &base, &count)
            }
            let bytes = base.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(max(count, 0)))) } ?? []
            return .bytes(bytes)
        }
        if elementType == DBusTypeCode.dictEntry {
            // "{kv}": one basic key character, then one complete value type.
            guard element.hasPrefix("{"), element.hasSuffix("}"), element.count >= 4 else {
                throw DBusError.malformed("dictionary signature '\(full)'")
            }
            let inside = element.dropFirst().dropLast()
            let key = String(inside.prefix(1))
            let valueSignature = String(inside.dropFirst())
            var entries: [DBusDictEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == DBusTypeCode.dictEntry {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let parts = try readAll(&pair, depth: depth + 2)
                guard parts.count == 2, parts[0].signature == key, parts[1].signature == valueSignature else {
                    throw DBusError.malformed("dictionary entry of '\(full)' holds '\(parts.dbusSignature)'")
                }
                entries.append(DBusDictEntry(parts[0], parts[1]))
                dbus_message_iter_next(&sub)
            }
            return .dict(keySignature: key, valueSignature: valueSignature, entries)
        }
        let items = try readAll(&sub, depth: depth + 1)
        for item in items where item.signature != element {
            throw DBusError.malformed("array of '\(element)' holds '\(item.signature)'")
        }
        return .array(elementSignature: element, items)
    }
}
