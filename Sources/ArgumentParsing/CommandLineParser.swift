/// Matches the words after the subcommand against its declarations.
///
/// - `--name value` and `--name=value`; a flag takes no value.
/// - `-x` for a declared short name (`-x value` for an option).
/// - `--` ends options: everything after it is positional, even if it starts with `-`.
/// - A lone `-` is positional.
/// - A repeatable option (its property is an array) collects every occurrence, in order; given at
///   least once, its values replace the default. Any other option given twice keeps the last value.
/// - An option's value cannot be a following `--word`: write `--key=--odd-name` for that.
///
/// Every problem is a `UsageError` naming the argument; nothing here prints or exits.
struct CommandLineParser {
    let definitions: [ArgumentDefinition]

    /// True when `-h` or `--help` appears before any `--`: help wins over every other problem.
    static func requestsHelp(_ words: [String]) -> Bool {
        for word in words {
            if word == "--" { return false }
            if word == "--help" || word == "-h" { return true }
        }
        return false
    }

    func parse(_ words: [String]) throws(UsageError) -> ParsedValues {
        var values = ParsedValues()
        for definition in definitions {
            if case .value(let value, _) = definition.defaultValue { values[definition.key] = value }
        }
        var given: Set<String> = []
        // Values of the repeatable options so far, by key.
        var collected: [String: [any Sendable]] = [:]
        let positionals = definitions.filter { if case .positional = $0.kind { true } else { false } }
        var nextPositional = 0
        var optionsEnded = false
        var index = 0

        while index < words.count {
            let word = words[index]
            index += 1
            if !optionsEnded && word == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded && word.hasPrefix("-") && word != "-" {
                let (definition, inlineValue) = try match(word)
                switch definition.kind {
                case .flag:
                    if inlineValue != nil {
                        throw UsageError("\(definition.displayName) does not take a value")
                    }
                    values[definition.key] = true
                case .option(let valueName):
                    let text: String
                    if let inlineValue {
                        text = inlineValue
                    } else if index < words.count && !Self.looksLikeLongOption(words[index]) {
                        text = words[index]
                        index += 1
                    } else {
                        throw UsageError("\(definition.displayName) needs a value <\(valueName)>")
                    }
                    let value = try convert(text, for: definition)
                    if definition.isRepeatable {
                        collected[definition.key, default: []].append(value)
                    } else {
                        values[definition.key] = value
                    }
                case .positional:
                    throw UsageError("\(word) is not an option")
                }
                given.insert(definition.key)
                continue
            }
            guard nextPositional < positionals.count else {
                throw UsageError("unexpected argument '\(word)'")
            }
            let definition = positionals[nextPositional]
            nextPositional += 1
            values[definition.key] = try convert(word, for: definition)
            given.insert(definition.key)
        }

        for definition in definitions {
            if let collect = definition.collect, let occurrences = collected[definition.key] {
                values[definition.key] = collect(occurrences)
            }
        }
        for definition in definitions where definition.isRequired && !given.contains(definition.key) {
            switch definition.kind {
            case .positional: throw UsageError("missing argument \(definition.displayName)")
            case .option(let valueName):
                throw UsageError("missing option \(definition.displayName) <\(valueName)>")
            case .flag: throw UsageError("missing flag \(definition.displayName)")
            }
        }
        return values
    }

    /// The definition an option word names, and the value after `=` if there is one.
    private func match(_ word: String) throws(UsageError) -> (ArgumentDefinition, String?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name: String
            let inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
                inlineValue = nil
            }
            if let definition = definitions.first(where: { $0.longName == name }) {
                return (definition, inlineValue)
            }
            let known = definitions.compactMap(\.longName) + ["help"]
            let hint = closestName(to: name, among: known).map { " (did you mean --\($0)?)" } ?? ""
            throw UsageError("unknown option '--\(name)'\(hint)")
        }
        let letters = word.dropFirst()
        if letters.count == 1, let letter = letters.first,
           let definition = definitions.first(where: { $0.shortName == letter }) {
            return (definition, nil)
        }
        throw UsageError("unknown option '\(word)'")
    }

    private func convert(_ text: String, for definition: ArgumentDefinition) throws(UsageError) -> any Sendable {
        guard let value = definition.convert(text) else {
            throw UsageError("invalid value '\(text)' for \(definition.displayName): expected \(definition.expectedValue)")
        }
        return value
    }

    private static func looksLikeLongOption(_ word: String) -> Bool {
        word.hasPrefix("--") && word.count > 2
    }
}
