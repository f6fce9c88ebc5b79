/// Reads the declarations of a `ParsableArguments` type: builds it with `init()` and walks its
/// stored properties (a wrapper's storage is labelled `_name`), descending into nested groups such
/// as `CommonOptions`. Declaration order is help order and positional order.
enum ArgumentCollector {
    /// A command type whose declarations cannot work. This is a bug in dfu, found by any `--help`.
    struct DeclarationError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    static func definitions<Arguments: ParsableArguments>(
        of type: Arguments.Type
    ) throws(DeclarationError) -> [ArgumentDefinition] {
        let definitions = try collect(Arguments(), path: [])
        try checkNamesAreUnique(definitions, in: "\(type)")
        return definitions
    }

    private static func collect(_ arguments: any ParsableArguments,
                                path: [String]) throws(DeclarationError) -> [ArgumentDefinition] {
        var definitions: [ArgumentDefinition] = []
        for child in Mirror(reflecting: arguments).children {
            guard let label = child.label else { continue }
            if let declaring = child.value as? any ArgumentDeclaring {
                let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                guard let definition = declaring.definition(path: path + [name]) else {
                    throw DeclarationError(description: "\(label) holds a parsed value, not a declaration")
                }
                definitions.append(definition)
            } else if let group = child.value as? any ParsableArguments {
                definitions += try collect(group, path: path + [label])
            } else {
                throw DeclarationError(
                    description: "stored property \(label) is neither @Option, @Flag, @Argument nor a group")
            }
        }
        return definitions
    }

    private static func checkNamesAreUnique(_ definitions: [ArgumentDefinition],
                                            in type: String) throws(DeclarationError) {
        var seen: Set<String> = ["help", "h"]
        for definition in definitions {
            for name in [definition.longName, definition.shortName.map { String($0) }].compactMap({ $0 }) {
                guard seen.insert(name).inserted else {
                    throw DeclarationError(description: "\(type) declares the option name '\(name)' twice")
                }
            }
        }
    }
}
