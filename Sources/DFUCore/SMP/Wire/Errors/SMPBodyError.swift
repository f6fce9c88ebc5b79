/// Why a CBOR map is not the SMP body it should be: a field missing or of the wrong type. For a
/// client this means the device broke the protocol; for the virtual device it means the request is
/// malformed (Zephyr answers those with `MCUmgrError.invalidValue`, or with a group error for a
/// missing field it checks itself, such as upload's `off`).
public enum SMPBodyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `field` is a path such as `images[1].slot`.
    case missingField(String)
    case wrongType(field: String, expected: String, found: String)
    /// The field has the right type but a value that cannot be right (e.g. a u16 above 65 535).
    case invalidValue(field: String, reason: String)

    public var field: String {
        switch self {
        case .missingField(let f), .wrongType(let f, _, _), .invalidValue(let f, _): return f
        }
    }

    public var description: String {
        switch self {
        case .missingField(let field):
            return "SMP body lacks the required field \(field)"
        case .wrongType(let field, let expected, let found):
            return "SMP body field \(field) should be a \(expected) but is a \(found)"
        case .invalidValue(let field, let reason):
            return "SMP body field \(field) is invalid: \(reason)"
        }
    }
}

/// Typed reads of one map's fields with the path for error messages. Unknown keys are ignored, as
/// Zephyr's `zcbor_map_decode_bulk` ignores them, so newer peers' extra fields do no harm.
struct SMPFields {
    let map: CBORMap
    let path: String

    init(_ map: CBORMap, path: String = "") {
        self.map = map
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func required(_ key: String) throws(SMPBodyError) -> CBORValue {
        guard let value = map[key] else { throw .missingField(name(key)) }
        return value
    }

    func optionalUInt(_ key: String, max: UInt64 = .max) throws(SMPBodyError) -> UInt64? {
        guard let value = map[key] else { return nil }
        guard let n = value.uint else {
            throw .wrongType(field: name(key), expected: "unsigned integer", found: value.kindName)
        }
        guard n <= max else { throw .invalidValue(field: name(key), reason: "\(n) exceeds \(max)") }
        return n
    }

    func uint(_ key: String, max: UInt64 = .max) throws(SMPBodyError) -> UInt64 {
        guard let n = try optionalUInt(key, max: max) else { throw .missingField(name(key)) }
        return n
    }

    func optionalInt(_ key: String) throws(SMPBodyError) -> Int64? {
        guard let value = map[key] else { return nil }
        switch value {
        case .unsigned, .negative:
            guard let n = value.int else {
                throw .invalidValue(field: name(key), reason: "\(value) does not fit 64 bits")
            }
            return n
        default:
            throw .wrongType(field: name(key), expected: "integer", found: value.kindName)
        }
    }

    func int(_ key: String) throws(SMPBodyError) -> Int64 {
        guard let n = try optionalInt(key) else { throw .missingField(name(key)) }
        return n
    }

    func optionalBytes(_ key: String) throws(SMPBodyError) -> [UInt8]? {
        guard let value = map[key] else { return nil }
        guard let b = value.bytes else {
            throw .wrongType(field: name(key), expected: "byte string", found: value.kindName)
        }
        return b
    }

    func bytes(_ key: String) throws(SMPBodyError) -> [UInt8] {
        guard let b = try optionalBytes(key) else { throw .missingField(name(key)) }
        return b
    }

    func optionalText(_ key: String) throws(SMPBodyError) -> String? {
        guard let value = map[key] else { return nil }
        guard let s = value.text else {
            throw .wrongType(field: name(key), expected: "text string", found: value.kindName)
        }
        return s
    }

    func text(_ key: String) throws(SMPBodyError) -> String {
        guard let s = try optionalText(key) else { throw .missingField(name(key)) }
        return s
    }

    func optionalBool(_ key: String) throws(SMPBodyError) -> Bool? {
        guard let value = map[key] else { return nil }
        guard let b = value.bool else {
            throw .wrongType(field: name(key), expected: "boolean", found: value.kindName)
        }
        return b
    }

    /// The elements of an array of maps, each with its indexed path (`images[2]`).
    func mapArray(_ key: String) throws(SMPBodyError) -> [SMPFields] {
        let value = try required(key)
        guard let items = value.array else {
            throw .wrongType(field: name(key), expected: "array", found: value.kindName)
        }
        var result: [SMPFields] = []
        for (i, item) in items.enumerated() {
            guard let m = item.map else {
                throw .wrongType(field: "\(name(key))[\(i)]", expected: "map", found: item.kindName)
            }
            result.append(SMPFields(m, path: "\(name(key))[\(i)]"))
        }
        return result
    }
}
