/// One CBOR data item of the subset SMP uses (RFC 8949 major types 0–5 and the simple values
/// true, false and null). Floats, tags, `undefined` and other simple values are not representable:
/// neither Zephyr nor smpclient sends them for the commands dfu uses, and a decoder that cannot
/// produce them cannot be tricked into mishandling them.
///
/// Integers keep CBOR's own split into unsigned and negative so the full range of both major types
/// (0…2⁶⁴−1 and −2⁶⁴…−1) survives a round trip without a wider integer type.
public enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n` (so `.negative(0)` is −1 and `.negative(UInt64.max)` is −2⁶⁴).
    case negative(UInt64)
    /// Major type 2: a byte string (definite or indefinite on the wire; always joined here).
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string, validated on decode.
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, in wire order.
    case map(CBORMap)
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null

    /// The integer `value` in whichever major type CBOR uses for its sign.
    public static func int(_ value: Int64) -> CBORValue {
        // -1 - value cannot overflow for negative Int64: -1 - Int64.min == Int64.max.
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// A non-negative integer, or nil for any other item (a negative integer included).
    public var uint: UInt64? {
        if case .unsigned(let n) = self { return n }
        return nil
    }

    /// A signed integer if the item is an integer that fits in `Int64`.
    public var int: Int64? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    public var bytes: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    public var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    public var array: [CBORValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var map: CBORMap? {
        if case .map(let m) = self { return m }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value under a text key when this item is a map; nil otherwise. Lets SMP code write
    /// `body["off"]?.uint` without first proving the body is a map.
    public subscript(key: String) -> CBORValue? {
        map?[key]
    }

    /// The item's kind as a word, for error messages ("expected bytes, found text").
    public var kindName: String {
        switch self {
        case .unsigned: return "unsigned integer"
        case .negative: return "negative integer"
        case .bytes: return "byte string"
        case .text: return "text string"
        case .array: return "array"
        case .map: return "map"
        case .bool: return "boolean"
        case .null: return "null"
        }
    }
}

// Literals keep builders and tests short: `["off": 0, "data": .bytes(chunk)]`.
extension CBORValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension CBORValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension CBORValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension CBORValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension CBORValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: CBORValue...) { self = .array(elements) }
}

extension CBORValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self = .map(CBORMap(elements.map { CBORMap.Entry(key: $0.0, value: $0.1) }))
    }
}

extension CBORValue: CustomStringConvertible {
    /// RFC 8949 diagnostic notation (`{"off": 0, "data": h'0102'}`), for logs and test failures.
    public var description: String {
        switch self {
        case .unsigned(let n): return String(n)
        case .negative(let n): return n == UInt64.max ? "-18446744073709551616" : "-\(n + 1)"
        case .bytes(let b): return "h'" + b.map { cborByteHex($0) }.joined() + "'"
        case .text(let s): return "\"" + s.replacingQuotes() + "\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .map(let m): return m.description
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }
}

func cborByteHex(_ byte: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var out = ""
        for ch in self {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.append(ch)
            }
        }
        return out
    }
}
