/// What the parser and the help generator know about one declared argument, independent of its
/// Swift type. Built from a property wrapper (`@Option`, `@Flag`, `@Argument`) by `ArgumentCollector`.
struct ArgumentDefinition: Sendable {
    enum Kind: Sendable, Equatable {
        /// `--json`: present or not.
        case flag
        /// `--key PUB.pem` or `--key=PUB.pem`.
        case option(valueName: String)
        /// `IMAGE`: taken by position.
        case positional(valueName: String)
    }

    enum Default: Sendable {
        /// The user must give it.
        case required
        /// Used when the user does not give it; `shown` is what help prints (nil: nothing).
        case value(any Sendable, shown: String?)
    }

    /// Property names from the command down to this argument (`["common", "json"]`).
    var path: [String]
    var kind: Kind
    /// `key` for `--key`; nil for positionals.
    var longName: String?
    var shortName: Character?
    var help: String
    var defaultValue: Default
    /// Turns the typed text into the property's value; nil when the text is not acceptable.
    var convert: @Sendable (String) -> (any Sendable)?
    /// Completes "expected …" when `convert` refuses a value.
    var expectedValue: String
    /// Set for an option whose property is an array (`var fault: [String] = []`): every occurrence
    /// adds one value (each through `convert`), and this builds the property's array from them, in
    /// the order given. nil for an argument that holds one value.
    var collect: (@Sendable ([any Sendable]) -> any Sendable)? = nil
    /// The values `convert` accepts when its type has a fixed set (`ExpressibleByArgument.allValueStrings`);
    /// empty otherwise. Only the shell completions read it.
    var allValues: [String] = []
    /// The help section it is listed in: the title of the `@OptionGroup` that declares it; nil for
    /// the command's own arguments and untitled groups ("OPTIONS").
    var section: String? = nil

    /// Where the parsed value is stored and looked up.
    var key: String { path.joined(separator: ".") }

    /// Whether the option may be given several times, each adding a value.
    var isRepeatable: Bool { collect != nil }

    var isRequired: Bool {
        if case .required = defaultValue { return true } else { return false }
    }

    /// How the user refers to it in messages and help: `--key`, `-v`, `<IMAGE>`.
    var displayName: String {
        switch kind {
        case .positional(let valueName): return "<\(valueName)>"
        case .flag, .option:
            if let longName { return "--\(longName)" }
            if let shortName { return "-\(shortName)" }
            return key
        }
    }
}

/// Implemented by the property wrappers: the definition for the property at `path`, or nil for a
/// wrapper that came out of parsing (it holds a value, not a declaration).
protocol ArgumentDeclaring {
    func definition(path: [String]) -> ArgumentDefinition?
}

/// Whether an argument must be given, and what it is otherwise.
enum Requirement<Value: Sendable>: Sendable {
    case required
    case defaulted(Value)
}

/// `connectTimeout` → `connect-timeout`: the default long name of an option property.
func kebabCase(_ propertyName: String) -> String {
    var result = ""
    for character in propertyName {
        if character.isUppercase {
            if !result.isEmpty { result.append("-") }
            result.append(contentsOf: character.lowercased())
        } else {
            result.append(character)
        }
    }
    return result
}
