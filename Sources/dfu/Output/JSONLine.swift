import Transport

/// A JSON value and its one-line encoding. Objects keep their field order, so output is stable and
/// diffable. Only what dfu emits is supported. Measured quantities (seconds, bytes/s) are `number`s
/// rounded to a stated precision; a value JSON cannot hold (NaN, infinity) is written as `null`.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A decimal with at most `maximumFractionDigits` places, trailing zeros dropped (`7.5`, `3`).
    case number(Double, maximumFractionDigits: Int)
    case string(String)
    case array([JSONValue])
    case object([JSONField])

    /// The value as one line of JSON (RFC 8259), with no trailing newline.
    var encoded: String {
        var output = ""
        encode(into: &output)
        return output
    }

    private func encode(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .number(let value, let digits):
            output += FixedPoint.compact(value, maximumFractionDigits: digits) ?? "null"
        case .string(let value): Self.encodeString(value, into: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.encode(into: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { output += "," }
                Self.encodeString(field.key, into: &output)
                output += ":"
                field.value.encode(into: &output)
            }
            output += "}"
        }
    }

    /// Quotes and escapes: `"` and `\`, the control characters U+0000–U+001F (short forms where
    /// JSON has them), and U+2028/U+2029 so the line is also safe to embed in JavaScript. Everything
    /// else passes through as UTF-8.
    private static func encodeString(_ string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
                output += "\\u" + hexDigits(scalar.value, width: 4, uppercase: false)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// One `"key": value` member of a JSON object.
struct JSONField: Sendable, Equatable {
    var key: String
    var value: JSONValue

    init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
