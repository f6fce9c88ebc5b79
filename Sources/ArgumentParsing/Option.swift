/// `--name value` (or `--name=value`), declared on the property it fills, with its help and default:
///
///     @Option(valueName: "PUB.pem", help: "Public key to check the signature with.")
///     var key: String?
///     @Option(help: "Seconds to wait for the device.")
///     var timeout = 30.0
///     @Option(valueName: "FAULT", help: "A fault to inject.")
///     var fault: [String] = []
///
/// Without a default and not optional, the option is required. An array collects every occurrence
/// (`--fault a --fault b` is `["a", "b"]`; help says it can be repeated); any other option given
/// twice keeps the last value.
@propertyWrapper
public struct Option<Value: Sendable>: Sendable, Decodable, ArgumentDeclaring {
    private struct Declaration: Sendable {
        var name: String?
        var short: Character?
        var valueName: String?
        var help: String
        var requirement: Requirement<Value>
        var shownDefault: String?
        /// One occurrence's text to its value: the property's value, or one element of an array.
        var convert: @Sendable (String) -> (any Sendable)?
        var expectedValue: String
        /// Only for an array: builds it from the values of every occurrence.
        var collect: (@Sendable ([any Sendable]) -> any Sendable)?
        /// The fixed set of values the type accepts (`ExpressibleByArgument.allValueStrings`).
        var allValues: [String]
    }

    private enum State: Sendable {
        case declared(Declaration)
        case parsed(Value)
    }

    private let state: State

    public var wrappedValue: Value {
        switch state {
        case .parsed(let value):
            return value
        case .declared(let declaration):
            if case .defaulted(let value) = declaration.requirement { return value }
            // Only `ArgumentCollector` sees unparsed commands, and it reads declarations, never values.
            preconditionFailure("bug: a required option was read before the command line was parsed")
        }
    }

    private init(declaration: Declaration) {
        state = .declared(declaration)
    }

    public init(from decoder: any Decoder) throws {
        state = .parsed(try ArgumentValueDecoder.value(Value.self, from: decoder))
    }

    func definition(path: [String]) -> ArgumentDefinition? {
        guard case .declared(let declaration) = state else { return nil }
        let name = declaration.name ?? kebabCase(path.last ?? "")
        let defaultValue: ArgumentDefinition.Default
        switch declaration.requirement {
        case .required: defaultValue = .required
        case .defaulted(let value): defaultValue = .value(value, shown: declaration.shownDefault)
        }
        return ArgumentDefinition(
            path: path, kind: .option(valueName: declaration.valueName ?? name), longName: name,
            shortName: declaration.short, help: declaration.help, defaultValue: defaultValue,
            convert: declaration.convert, expectedValue: declaration.expectedValue,
            collect: declaration.collect, allValues: declaration.allValues)
    }
}

extension Option where Value: ExpressibleByArgument {
    /// An option with a default: `@Option(help: "…") var timeout = 30.0`.
    public init(wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String? = nil,
         help: String) {
        self.init(declaration: Declaration(
            name: name, short: short, valueName: valueName, help: help,
            requirement: .defaulted(wrappedValue), shownDefault: wrappedValue.helpDescription,
            convert: { Value(argument: $0) }, expectedValue: Value.expectedValue, collect: nil,
            allValues: Value.allValueStrings))
    }

    /// A required option: `@Option(help: "…") var device: String`.
    public init(name: String? = nil, short: Character? = nil, valueName: String? = nil, help: String) {
        self.init(declaration: Declaration(
            name: name, short: short, valueName: valueName, help: help, requirement: .required,
            shownDefault: nil, convert: { Value(argument: $0) }, expectedValue: Value.expectedValue,
            collect: nil, allValues: Value.allValueStrings))
    }
}

extension Option {
    /// An option that may be left out: `@Option(help: "…") var key: String?` is nil then.
    public init<Wrapped: ExpressibleByArgument>(name: String? = nil, short: Character? = nil,
                                                valueName: String? = nil, help: String)
    where Value == Wrapped? {
        self.init(declaration: Declaration(
            name: name, short: short, valueName: valueName, help: help,
            requirement: .defaulted(nil), shownDefault: nil,
            convert: { Wrapped(argument: $0) }, expectedValue: Wrapped.expectedValue, collect: nil,
            allValues: Wrapped.allValueStrings))
    }

    /// A repeatable option: `@Option(help: "…") var fault: [String] = []` holds the value of every
    /// `--fault`, in the order given; when none is given, the default.
    public init<Element: ExpressibleByArgument>(wrappedValue: [Element] = [], name: String? = nil,
                                                short: Character? = nil, valueName: String? = nil,
                                                help: String)
    where Value == [Element] {
        self.init(declaration: Declaration(
            name: name, short: short, valueName: valueName, help: help,
            requirement: .defaulted(wrappedValue),
            shownDefault: wrappedValue.isEmpty ? nil : wrappedValue.map(\.helpDescription).joined(separator: " "),
            convert: { Element(argument: $0) }, expectedValue: Element.expectedValue,
            // Every value came from `convert`, so each is an `Element`.
            collect: { values in values.compactMap { $0 as? Element } }, allValues: Element.allValueStrings))
    }
}
