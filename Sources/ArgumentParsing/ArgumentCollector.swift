/// Reads the declarations of a `ParsableArguments` type: builds it with `init()` and walks its
/// stored properties (a wrapper's storage is labelled `_name`), descending into nested groups such
/// as `CommonOptions` (plain or `@OptionGroup`, whose title becomes each member's help section).
/// Declaration order is help order and positional order.
enum ArgumentCollector {
    static func definitions<Arguments: ParsableArguments>(
        of type: Arguments.Type
    ) throws(DeclarationError) -> [ArgumentDefinition] {
        let definitions = try collect(Arguments(), path: [], section: nil)
        try checkNamesAreUnique(definitions, in: "\(type)")
        return definitions
    }

    private static func collect(_ arguments: any ParsableArguments, path: [String],
                                section: String?) throws(DeclarationError) -> [ArgumentDefinition] {
        var definitions: [ArgumentDefinition] = []
        for child in Mirror(reflecting: arguments).children {
            guard let label = child.label else { continue }
            let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
            if let declaring = child.value as? any ArgumentDeclaring {
                guard var definition = declaring.definition(path: path + [name]) else {
                    throw DeclarationError(description: "\(label) holds a parsed value, not a declaration")
                }
                definition.section = section
                definitions.append(definition)
            } else if let titled = child.value as? any GroupDeclaring {
                guard let title = titled.title else {
                    throw DeclarationError(description: "\(label) holds a parsed group, not a declaration")
                }
                definitions += try collect(titled.declaredGroup, path: path + [name], section: title)
            } else if let group = child.value as? any ParsableArguments {
                definitions += try collect(group, path: path + [label], section: section)
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
