/// A type an option or positional argument can hold: built from the text the user typed, or refused
/// (the parser then throws the `UsageError` "invalid value … expected <expectedValue>").
public protocol ExpressibleByArgument: Sendable {
    init?(argument: String)
    /// Completes "expected …" in the error for a value that does not parse ("an integer").
    static var expectedValue: String { get }
    /// How a default is shown in help.
    var helpDescription: String { get }
    /// Every value it accepts, for a type with a fixed set (`--mode`): the shell completions offer
    /// them. Empty (the default) for open-ended types.
    static var allValueStrings: [String] { get }
}

extension ExpressibleByArgument {
    public static var allValueStrings: [String] { [] }
}

extension String: ExpressibleByArgument {
    public init?(argument: String) { self = argument }
    public static var expectedValue: String { "a string" }
    public var helpDescription: String { self }
}

extension Int: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument, radix: 10) }
    public static var expectedValue: String { "an integer" }
    public var helpDescription: String { String(self) }
}

extension Double: ExpressibleByArgument {
    public init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    public static var expectedValue: String { "a number" }
    public var helpDescription: String { String(self) }
}

extension UInt64: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument, radix: 10) }
    public static var expectedValue: String { "an unsigned integer" }
    public var helpDescription: String { String(self) }
}
