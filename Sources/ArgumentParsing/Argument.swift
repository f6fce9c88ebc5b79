/// A positional argument (`IMAGE`), taken in declaration order, declared on the property with its help:
///
///     @Argument(valueName: "IMAGE", help: "The signed image to check.")
///     var image: String
///
/// Without a default the argument is required; an optional one (`var hash: ImageHash?`) is nil when
/// left out.
@propertyWrapper
public struct Argument<Value: Sendable>: Sendable, Decodable, ArgumentDeclaring {
    private struct Declaration: Sendable {
        var valueName: String?
        var help: String
        var requirement: Requirement<Value>
        var shownDefault: String?
        var convert: @Sendable (String) -> (any Sendable)?
        var expectedValue: String
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
            preconditionFailure("bug: a required argument was read before the command line was parsed")
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
        let defaultValue: ArgumentDefinition.Default
        switch declaration.requirement {
        case .required: defaultValue = .required
        case .defaulted(let value): defaultValue = .value(value, shown: declaration.shownDefault)
        }
        let valueName = declaration.valueName ?? (path.last ?? "value").uppercased()
        return ArgumentDefinition(
            path: path, kind: .positional(valueName: valueName), longName: nil, shortName: nil,
            help: declaration.help, defaultValue: defaultValue,
            convert: declaration.convert, expectedValue: declaration.expectedValue,
            allValues: declaration.allValues)
    }
}

extension Argument where Value: ExpressibleByArgument {
    /// A required positional argument.
    public init(valueName: String? = nil, help: String) {
        self.init(declaration: Declaration(
            valueName: valueName, help: help, requirement: .required, shownDefault: nil,
            convert: { Value(argument: $0) }, expectedValue: Value.expectedValue, allValues: Value.allValueStrings))
    }

    /// A positional argument that may be left out.
    public init(wrappedValue: Value, valueName: String? = nil, help: String) {
        self.init(declaration: Declaration(
            valueName: valueName, help: help, requirement: .defaulted(wrappedValue),
            shownDefault: wrappedValue.helpDescription, convert: { Value(argument: $0) },
            expectedValue: Value.expectedValue, allValues: Value.allValueStrings))
    }
}

extension Argument {
    /// A positional argument that may be left out, nil then: `@Argument(help: "…") var hash: ImageHash?`.
    public init<Wrapped: ExpressibleByArgument>(valueName: String? = nil, help: String) where Value == Wrapped? {
        self.init(declaration: Declaration(
            valueName: valueName, help: help, requirement: .defaulted(nil), shownDefault: nil,
            convert: { Wrapped(argument: $0) }, expectedValue: Wrapped.expectedValue, allValues: Wrapped.allValueStrings))
    }
}
