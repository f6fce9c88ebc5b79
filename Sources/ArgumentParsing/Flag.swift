/// `--name`: true when given, false otherwise. Declared on the property with its help:
///
///     @Flag(help: "Print one JSON object instead of the table.")
///     var json = false
@propertyWrapper
public struct Flag: Sendable, Decodable, ArgumentDeclaring {
    private struct Declaration: Sendable {
        var name: String?
        var short: Character?
        var help: String
    }

    public var wrappedValue: Bool
    private let declaration: Declaration?

    public init(wrappedValue: Bool = false, name: String? = nil, short: Character? = nil, help: String) {
        self.wrappedValue = wrappedValue
        declaration = Declaration(name: name, short: short, help: help)
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try ArgumentValueDecoder.value(Bool.self, from: decoder)
        declaration = nil
    }

    func definition(path: [String]) -> ArgumentDefinition? {
        guard let declaration else { return nil }
        return ArgumentDefinition(
            path: path, kind: .flag, longName: declaration.name ?? kebabCase(path.last ?? ""),
            shortName: declaration.short, help: declaration.help,
            defaultValue: .value(wrappedValue, shown: nil), convert: { _ in nil }, expectedValue: "")
    }
}
