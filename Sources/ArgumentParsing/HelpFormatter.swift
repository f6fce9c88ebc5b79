/// Renders help text from declarations, so help cannot drift from what the parser accepts.
public enum HelpFormatter {
    static let width = 80
    private static let labelColumn = 26
    /// The most lines the full usage may take; past that, usage names the required arguments and
    /// `[options]`, and the option sections below list the rest.
    private static let fullUsageLines = 2

    /// Help for one subcommand: overview, usage, arguments, option sections, discussion.
    ///
    /// Options are listed under "OPTIONS" (the command's own and plain groups, then `-h, --help`),
    /// then under each `@OptionGroup` title in declaration order.
    static func commandHelp(commandPath: String, abstract: String, discussion: String,
                            definitions: [ArgumentDefinition]) -> String {
        let positionals = definitions.filter { if case .positional = $0.kind { true } else { false } }
        let options = definitions.filter { if case .positional = $0.kind { false } else { true } }

        var sections = ["OVERVIEW: \(abstract)", usage(commandPath: commandPath, definitions: definitions)]
        if !positionals.isEmpty {
            sections.append("ARGUMENTS:\n" + positionals.map { row(label: $0.displayName, help: helpText($0)) }
                .joined(separator: "\n"))
        }
        let untitled = options.filter { $0.section == nil }.map { row(label: optionLabel($0), help: helpText($0)) }
            + [row(label: "-h, --help", help: "Show this help.")]
        sections.append("OPTIONS:\n" + untitled.joined(separator: "\n"))
        var titles: [String] = []
        for definition in options {
            if let title = definition.section, !titles.contains(title) { titles.append(title) }
        }
        for title in titles {
            let rows = options.filter { $0.section == title }.map { row(label: optionLabel($0), help: helpText($0)) }
            sections.append("\(title):\n" + rows.joined(separator: "\n"))
        }
        if !discussion.isEmpty { sections.append(paragraphs(discussion)) }
        return sections.joined(separator: "\n\n")
    }

    /// Help for a tool of several commands (`dfu`): overview, usage, the command list, the root
    /// options, then `footer` (paragraphs, as a command's discussion).
    public static func rootHelp(toolName: String, abstract: String,
                         commands: [(name: String, abstract: String)], footer: String) -> String {
        // Command names are short: a narrower label column keeps each abstract on one line.
        let column = 2 + max(commands.map(\.name.count).max() ?? 0, "--version".count) + 4
        let commandRows = commands.map { row(label: $0.name, help: $0.abstract, column: column) }
        let optionRows = [row(label: "-h, --help", help: "Show this help.", column: column),
                          row(label: "--version", help: "Print the version of \(toolName).", column: column)]
        return [
            "OVERVIEW: \(abstract)",
            "USAGE: \(toolName) <command> [options]",
            "COMMANDS:\n" + commandRows.joined(separator: "\n"),
            "OPTIONS:\n" + optionRows.joined(separator: "\n"),
            paragraphs(footer),
        ].joined(separator: "\n\n")
    }

    /// Help for a group of commands (`dfu image`): overview, usage, its commands (each by the word
    /// after the group's), and where each one's options are.
    static func groupHelp(commandPath: String, abstract: String, commands: [(name: String, abstract: String)]) -> String {
        let column = 2 + max(commands.map(\.name.count).max() ?? 0, "-h, --help".count) + 4
        let commandRows = commands.map { row(label: $0.name, help: $0.abstract, column: column) }
        return [
            "OVERVIEW: \(abstract)",
            "USAGE: \(commandPath) <command> [options]",
            "COMMANDS:\n" + commandRows.joined(separator: "\n"),
            "OPTIONS:\n" + row(label: "-h, --help", help: "Show this help.", column: column),
            paragraphs("See '\(commandPath) <command> --help' for a command's options."),
        ].joined(separator: "\n\n")
    }

    /// `USAGE: dfu verify <IMAGE> [--key <PUB.pem>] [--json] [--verbose]`, wrapped under the
    /// command's name. When that takes more than `fullUsageLines` lines: the positionals, the
    /// required options and `[options]`.
    static func usage(commandPath: String, definitions: [ArgumentDefinition]) -> String {
        let lead = "USAGE: \(commandPath) "
        let positionals = definitions.filter { if case .positional = $0.kind { true } else { false } }
        let options = definitions.filter { if case .positional = $0.kind { false } else { true } }
        let full = positionals.map(usageItem) + options.map(usageItem)
        let lines = wrap(full, lead: lead)
        if lines.count <= fullUsageLines { return lines.joined(separator: "\n") }
        let short = positionals.map(usageItem) + options.filter(\.isRequired).map(usageItem) + ["[options]"]
        return wrap(short, lead: lead).joined(separator: "\n")
    }

    /// One argument as usage shows it: `<IMAGE>`, `--device <DEVICE>`, `[--key <PUB.pem>]`,
    /// `[--fault <FAULT> ...]`.
    private static func usageItem(_ definition: ArgumentDefinition) -> String {
        var text: String
        switch definition.kind {
        case .positional: text = definition.displayName
        case .flag: text = definition.displayName
        case .option(let valueName): text = "\(definition.displayName) <\(valueName)>"
        }
        if definition.isRepeatable { text += " ..." }
        return definition.isRequired ? text : "[\(text)]"
    }

    /// Items after `lead`, wrapped to `width`; continuation lines start under the first item.
    private static func wrap(_ items: [String], lead: String) -> [String] {
        let indent = String(repeating: " ", count: lead.count)
        var lines: [String] = []
        var current = lead
        var currentHasItem = false
        for item in items {
            if currentHasItem && current.count + 1 + item.count > width {
                lines.append(current)
                current = indent + item
            } else {
                current += (currentHasItem ? " " : "") + item
            }
            currentHasItem = true
        }
        lines.append(current)
        return lines
    }

    private static func optionLabel(_ definition: ArgumentDefinition) -> String {
        var names: [String] = []
        if let short = definition.shortName { names.append("-\(short)") }
        if let long = definition.longName { names.append("--\(long)") }
        var label = names.joined(separator: ", ")
        if case .option(let valueName) = definition.kind { label += " <\(valueName)>" }
        return label
    }

    /// The help column of one argument: its help, then its default and whether it can be repeated.
    static func helpText(_ definition: ArgumentDefinition) -> String {
        var notes: [String] = []
        if case .value(_, shown: let shown?) = definition.defaultValue { notes.append("default: \(shown)") }
        if definition.isRepeatable { notes.append("can be repeated") }
        return notes.isEmpty ? definition.help : "\(definition.help) (\(notes.joined(separator: "; ")))"
    }

    /// Two-space indent, label padded to a column, help wrapped to `width`. A label too long for
    /// its column puts the help on the next line.
    private static func row(label: String, help: String, column: Int = labelColumn) -> String {
        let indent = "  "
        let helpIndent = String(repeating: " ", count: column)
        let lines = wrap(help, width: width - column)
        var text = indent + label
        if text.count + 2 > column {
            text += "\n" + helpIndent
        } else {
            text += String(repeating: " ", count: column - text.count)
        }
        text += lines.joined(separator: "\n" + helpIndent)
        return text
    }

    /// Paragraphs (separated by a blank line) wrapped to `width`, except those with an indented
    /// line (examples, tables), which keep their lines as written.
    private static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true)
            .map { paragraph in
                let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: true)
                if lines.contains(where: { $0.hasPrefix(" ") }) { return lines.joined(separator: "\n") }
                return wrap(paragraph.replacingNewlines(), width: width).joined(separator: "\n")
            }
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
