import Foundation

/// A parsed JSON value with JSON's own types, for `JSONSchemaValidator`: `true` stays a boolean
/// and `1` an integer (JSONSerialization hands both back as an NSNumber, which blurs exactly the
/// mistake a schema test is for). Objects are dictionaries: the order of keys is checked on the raw
/// line instead.
indirect enum JSONNode: Sendable, Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    static func parse(_ text: String) throws -> JSONNode {
        try JSONDecoder().decode(JSONNode.self, from: Data(text.utf8))
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most specific first: a Bool never decodes from a number, an Int never from 7.5.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONNode].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONNode].self))
        }
    }

    /// The member `key` of an object, else nil.
    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    var intValue: Int? {
        guard case .integer(let value) = self else { return nil }
        return value
    }

    /// The JSON Schema type name (`integer` for a whole number, whichever way it was written).
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number(let value): return value.rounded() == value ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// As a number, for `minimum` and for comparing `1` with `1.0`.
    var numericValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// JSON Schema's equality (`const`, `enum`): numbers by value, objects regardless of key order.
    func sameValue(as other: JSONNode) -> Bool {
        if let left = numericValue, let right = other.numericValue { return left == right }
        switch (self, other) {
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.sameValue(as: $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { value.sameValue(as: $0) } ?? false }
        default:
            return self == other
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]?.description ?? "")" }.joined(separator: ",") + "}"
        }
    }
}
