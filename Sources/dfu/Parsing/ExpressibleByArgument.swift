/// A type an option or positional argument can hold: built from the text the user typed, or refused
/// (the parser then reports "invalid value … expected <expectedValue>" and exits 2).
protocol ExpressibleByArgument: Sendable {
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
    static var allValueStrings: [String] { [] }
}

extension String: ExpressibleByArgument {
    init?(argument: String) { self = argument }
    static var expectedValue: String { "a string" }
    var helpDescription: String { self }
}

extension Int: ExpressibleByArgument {
    init?(argument: String) { self.init(argument, radix: 10) }
    static var expectedValue: String { "an integer" }
    var helpDescription: String { String(self) }
}

extension Double: ExpressibleByArgument {
    init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    static var expectedValue: String { "a number" }
    var helpDescription: String { String(self) }
}
