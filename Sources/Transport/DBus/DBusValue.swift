/// One D-Bus value with its type. Containers carry their element signatures so that empty arrays
/// and dictionaries still have a type on the wire.
public indirect enum DBusValue: Sendable, Equatable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(DBusUnixFD)
    /// `a<elementSignature>`; every element must have exactly that signature.
    case array(elementSignature: String, [DBusValue])
    /// `a{<keySignature><valueSignature>}`; keys are basic types. Order is kept as on the wire.
    case dict(keySignature: String, valueSignature: String, [DBusDictEntry])
    /// `(...)`, at least one field.
    case structure([DBusValue])
    /// `v`: a value that carries its own signature.
    case variant(DBusValue)

    /// The value's D-Bus signature (one complete type).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dict(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    public static func == (lhs: DBusValue, rhs: DBusValue) -> Bool {
        switch (lhs, rhs) {
        case (.byte(let a), .byte(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.int16(let a), .int16(let b)): a == b
        case (.uint16(let a), .uint16(let b)): a == b
        case (.int32(let a), .int32(let b)): a == b
        case (.uint32(let a), .uint32(let b)): a == b
        case (.int64(let a), .int64(let b)): a == b
        case (.uint64(let a), .uint64(let b)): a == b
        // Bitwise, so NaN round-trips compare equal and -0.0 differs from 0.0.
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a == b
        case (.objectPath(let a), .objectPath(let b)): a == b
        case (.signature(let a), .signature(let b)): a == b
        // Two fds are the same value only if they are the same owner: numbers are reused after close.
        case (.unixFD(let a), .unixFD(let b)): a === b
        case (.array(let ea, let a), .array(let eb, let b)): ea == eb && a == b
        case (.dict(let ka, let va, let a), .dict(let kb, let vb, let b)): ka == kb && va == vb && a == b
        case (.structure(let a), .structure(let b)): a == b
        case (.variant(let a), .variant(let b)): a == b
        default: false
        }
    }
}

/// One entry of a D-Bus dictionary (`{kv}`).
public struct DBusDictEntry: Sendable, Equatable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// `ay` from bytes.
    public static func bytes(_ bytes: [UInt8]) -> DBusValue {
        .array(elementSignature: "y", bytes.map { .byte($0) })
    }

    /// `as` from strings.
    public static func strings(_ strings: [String]) -> DBusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// `a{sv}` from a property map; keys sorted so the wire order is stable.
    public static func properties(_ properties: [String: DBusValue]) -> DBusValue {
        .dict(keySignature: "s", valueSignature: "v",
              properties.sorted { $0.key < $1.key }.map { DBusDictEntry(.string($0.key), .variant($0.value)) })
    }

    /// `a{sa{sv}}`: interface name → properties (InterfacesAdded, one object of GetManagedObjects).
    public static func interfaces(_ interfaces: [String: [String: DBusValue]]) -> DBusValue {
        .dict(keySignature: "s", valueSignature: "a{sv}",
              interfaces.sorted { $0.key < $1.key }.map { DBusDictEntry(.string($0.key), .properties($0.value)) })
    }

    /// `a{oa{sa{sv}}}`: the GetManagedObjects reply.
    public static func managedObjects(_ objects: [String: [String: [String: DBusValue]]]) -> DBusValue {
        .dict(keySignature: "o", valueSignature: "a{sa{sv}}",
              objects.sorted { $0.key < $1.key }.map { DBusDictEntry(.objectPath($0.key), .interfaces($0.value)) })
    }
}
