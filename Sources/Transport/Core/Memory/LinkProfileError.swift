/// A link profile value outside what Bluetooth LE allows (or the model supports).
public struct LinkProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The profile field, as the `sim:` option or `LinkProfile` parameter calls it.
    public let field: String
    public let value: String
    /// What would be accepted.
    public let expected: String

    public init(field: String, value: String, expected: String) {
        self.field = field
        self.value = value
        self.expected = expected
    }

    public var description: String {
        "link profile: \(field) = \(value) is not allowed; use \(expected)."
    }
}
