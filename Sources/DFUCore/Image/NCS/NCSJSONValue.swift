import Foundation

/// A decoded JSON value of an NCS `manifest.json`, kept as a tree so that each field can be read the
/// way sdk-nrf writes it (generate_zip.py writes numbers as integers and every other value as a string)
/// and a field of the wrong shape gets an error that names it, where a `Codable` struct would give up.
/// Decoded by Foundation's `JSONDecoder`, which limits nesting depth; the text is bounded before that.
indirect enum NCSJSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int)
    /// A number that is not a whole number within `Int` (1.5, 1e30).
    case number(Double)
    case string(String)
    case array([NCSJSONValue])
    /// Keys in no particular order; a key given twice keeps one value (JSONDecoder's rule).
    case object([String: NCSJSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
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
        } else if let value = try? container.decode([NCSJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: NCSJSONValue].self))
        }
    }

    /// `bytes` as JSON, or nil when they are not JSON.
    static func parse(_ bytes: [UInt8]) -> NCSJSONValue? {
        try? JSONDecoder().decode(NCSJSONValue.self, from: Data(bytes))
    }

    /// What the value is, for messages: "a string", "an object".
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
