internal import CDBus

/// Writes `DBusValue`s with libdbus's iterator calls (`dbus_message_append_args` is variadic and
/// not imported into Swift).
enum DBusMessageWriter {
    /// Containers (arrays, dict entries, structs, variants) nested deeper than this are refused: the
    /// D-Bus limit for a whole message is 64, and a daemon that receives more drops our connection.
    static let maximumDepth = 32

    /// Checks a value before anything is written: names and signatures valid, every element of a
    /// container of the declared type, nesting within limits.
    static func validate(_ value: DBusValue, depth: Int = 0) throws {
        guard depth <= maximumDepth else { throw DBusError.invalidArgument("value nested deeper than \(maximumDepth)") }
        switch value {
        case .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .unixFD:
            return
        case .string(let text):
            try LibDBus.checkText(text)
        case .objectPath(let path):
            try LibDBus.checkPath(path)
        case .signature(let signature):
            if !signature.isEmpty { try LibDBus.checkSignature(signature) }
        case .array(let element, let values):
            try LibDBus.checkSingleSignature("a" + element)
            for item in values {
                guard item.signature == element else {
                    throw DBusError.invalidArgument("array of '\(element)' holds a '\(item.signature)'")
                }
                try validate(item, depth: depth + 1)
            }
        case .dict(let key, let valueSignature, let entries):
            guard DBusTypeCode.basicSignatures.contains(key) else {
                throw DBusError.invalidArgument("dictionary key type '\(key)' is not basic")
            }
            try LibDBus.checkSingleSignature("a{" + key + valueSignature + "}")
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueSignature else {
                    throw DBusError.invalidArgument(
                        "dictionary a{\(key)\(valueSignature)} holds {\(entry.key.signature)\(entry.value.signature)}")
                }
                try validate(entry.key, depth: depth + 2)
                try validate(entry.value, depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError.invalidArgument("empty struct") }
            try LibDBus.checkSingleSignature(value.signature)
            for field in fields { try validate(field, depth: depth + 1) }
        case .variant(let inner):
            try validate(inner, depth: depth + 1)
        }
    }

    static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) throws {
        switch value {
        case .byte(var v): try basic(&iterator, DBusTypeCode.byte, &v)
        case .bool(let b):
            var v: dbus_bool_t = b ? 1 : 0
            try basic(&iterator, DBusTypeCode.boolean, &v)
        case .int16(var v): try basic(&iterator, DBusTypeCode.int16, &v)
        case .uint16(var v): try basic(&iterator, DBusTypeCode.uint16, &v)
        case .int32(var v): try basic(&iterator, DBusTypeCode.int32, &v)
        case .uint32(var v): try basic(&iterator, DBusTypeCode.uint32, &v)
        case .int64(var v): try basic(&iterator, DBusTypeCode.int64, &v)
        case .uint64(var v): try basic(&iterator, DBusTypeCode.uint64, &v)
        case .double(var v): try basic(&iterator, DBusTypeCode.double, &v)
        case .string(let text): try string(&iterator, DBusTypeCode.string, text)
        case .objectPath(let text): try string(&iterator, DBusTypeCode.objectPath, text)
        case .signature(let text): try string(&iterator, DBusTypeCode.signature, text)
        case .unixFD(let owner):
            // libdbus dups the descriptor into the message; ours stays open and owned.
            var fd = owner.descriptor
            try basic(&iterator, DBusTypeCode.unixFD, &fd)
        case .array(let element, let values):
            try container(&iterator, DBusTypeCode.array, element) { sub in
                if element == "y" {
                    var bytes = values.compactMap { if case .byte(let b) = $0 { b } else { nil } }
                    try bytes.withUnsafeMutableBufferPointer { buffer in
                        var base = UnsafeRawPointer(buffer.baseAddress)
                        guard dbus_message_iter_append_fixed_array(&sub, DBusTypeCode.byte, &base, Int32(buffer.count)) != 0
                        else { throw DBusError.outOfMemory }
                    }
                } else {
                    for item in values { try append(item, to: &sub) }
                }
            }
        case .dict(let key, let valueSignature, let entries):
            try container(&iterator, DBusTypeCode.array, "{" + key + valueSignature + "}") { sub in
                for entry in entries {
                    try container(&sub, DBusTypeCode.dictEntry, nil) { pair in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container(&iterator, DBusTypeCode.structure, nil) { sub in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try container(&iterator, DBusTypeCode.variant, inner.signature) { sub in
                try append(inner, to: &sub)
            }
        }
    }

    private static func basic<T: BitwiseCopyable>(_ iterator: inout DBusMessageIter, _ type: Int32, _ value: inout T) throws {
        let appended = withUnsafeMutablePointer(to: &value) { dbus_message_iter_append_basic(&iterator, type, $0) }
        guard appended != 0 else { throw DBusError.outOfMemory }
    }

    /// Strings go in as a pointer to a `const char *`.
    private static func string(_ iterator: inout DBusMessageIter, _ type: Int32, _ text: String) throws {
        try text.withCString { pointer in
            var cString: UnsafePointer<CChar>? = pointer
            try basic(&iterator, type, &cString)
        }
    }

    private static func container(_ iterator: inout DBusMessageIter, _ type: Int32, _ signature: String?,
                                  _ body: (inout DBusMessageIter) throws -> Void) throws {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t = if let signature {
            signature.withCString { dbus_message_iter_open_container(&iterator, type, $0, &sub) }
        } else {
            dbus_message_iter_open_container(&iterator, type, nil, &sub)
        }
        guard opened != 0 else { throw DBusError.outOfMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container_if_open(&iterator, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iterator, &sub) != 0 else { throw DBusError.outOfMemory }
    }
}
