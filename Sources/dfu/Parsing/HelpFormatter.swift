/// Renders help text from declarations, so help cannot drift from what the parser accepts.
enum HelpFormatter {
    static let width = 80
    private static let labelColumn = 26

    /// Help for one subcommand: overview, usage line, arguments, options, discussion.
    static func commandHelp(commandPath: String, abstract: String, discussion: String,
                            definitions: [ArgumentDefinition]) -> String {
        let positionals = definitions.filter { if case .positional = $0.kind { true } else { false } }
        let options = definitions.filter { if case .positional = $0.kind { false } else { true } }

        var sections = ["OVERVIEW: \(abstract)", "USAGE: \(usageLine(commandPath: commandPath, definitions: definitions))"]
        if !positionals.isEmpty {
            sections.append("ARGUMENTS:\n" + positionals.map { row(label: $0.displayName, help: helpText($0)) }
                .joined(separator: "\n"))
        }
        let optionRows = options.map { row(label: optionLabel($0), help: helpText($0)) }
            + [row(label: "-h, --help", help: "Show this help.")]
        sections.append("OPTIONS:\n" + optionRows.joined(separator: "\n"))
        if !discussion.isEmpty { sections.append(paragraphs(discussion)) }
        return sections.joined(separator: "\n\n")
    }

    /// Help for `dfu` itself: overview, usage, the command list and the root options.
    static func rootHelp(toolName: String, abstract: String,
                         commands: [(name: String, abstract: String)], footer: String) -> String {
        let commandRows = commands.map { row(label: $0.name, help: $0.abstract) }
        let optionRows = [row(label: "-h, --help", help: "Show this help."),
                          row(label: "--version", help: "Print the version of \(toolName).")]
        return [
            "OVERVIEW: \(abstract)",
            "USAGE: \(toolName) <command> [options]",
            "COMMANDS:\n" + commandRows.joined(separator: "\n"),
            "OPTIONS:\n" + optionRows.joined(separator: "\n"),
            footer,
        ].joined(separator: "\n\n")
    }

    /// `dfu verify <IMAGE> [--key <PUB.pem>] [--json] [--verbose]`
    static func usageLine(commandPath: String, definitions: [ArgumentDefinition]) -> String {
        var parts = [commandPath]
        for definition in definitions {
            if case .positional = definition.kind {
                parts.append(definition.isRequired ? definition.displayName : "[\(definition.displayName)]")
            }
        }
        for definition in definitions {
            let text: String
            switch definition.kind {
            case .positional: continue
            case .flag: text = definition.displayName
            case .option(let valueName): text = "\(definition.displayName) <\(valueName)>"
            }
            parts.append(definition.isRequired ? text : "[\(text)]")
        }
        return parts.joined(separator: " ")
    }

    private static func optionLabel(_ definition: ArgumentDefinition) -> String {
        var names: [String] = []
        if let short = definition.shortName { names.append("-\(short)") }
        if let long = definition.longName { names.append("--\(long)") }
        var label = names.joined(separator: ", ")
        if case .option(let valueName) = definition.kind { label += " <\(valueName)>" }
        return label
    }

    private static func helpText(_ definition: ArgumentDefinition) -> String {
        switch definition.defaultValue {
        case .required, .value(_, shown: nil): return definition.help
        case .value(_, shown: let shown?): return "\(definition.help) (default: \(shown))"
        }
    }

    /// Two-space indent, label padded to a column, help wrapped to `width`. A label too long for
    /// its column puts the help on the next line.
    private static func row(label: String, help: String) -> String {
        let indent = "  "
        let helpIndent = String(repeating: " ", count: labelColumn)
        let lines = wrap(help, width: width - labelColumn)
        var text = indent + label
        if text.count + 2 > labelColumn {
            text += "\n" + helpIndent
        } else {
            text += String(repeating: " ", count: labelColumn - text.count)
        }
        text += lines.joined(separator: "\n" + helpIndent)
        return text
    }

    /// Each paragraph (separated by a blank line) wrapped to `width`.
    private static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true)
            .map { wrap($0.replacingNewlines(), width: width).joined(separator: "\n") }
            .joined(separator: "\n\n")
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}

private extension Substring {
    func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
