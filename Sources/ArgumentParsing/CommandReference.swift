/// One subcommand as the generated documents (man page, shell completions) see it: the same
/// strings and declarations its `--help` is built from, so they cannot drift apart.
public struct CommandReference: Sendable {
    var name: String
    var abstract: String
    var discussion: String
    var definitions: [ArgumentDefinition]

    public init<Command: ParsableCommand>(_ type: Command.Type) throws(DeclarationError) {
        name = Command.name
        abstract = Command.abstract
        discussion = Command.discussion
        definitions = try ArgumentCollector.definitions(of: Command.self)
    }

    var positionals: [ArgumentDefinition] {
        definitions.filter { if case .positional = $0.kind { true } else { false } }
    }

    var options: [ArgumentDefinition] {
        definitions.filter { if case .positional = $0.kind { false } else { true } }
    }

    /// The discussion's paragraphs (separated by a blank line), as help prints them.
    var discussionParagraphs: [String] {
        discussion.split(separator: "\n\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The rows of the discussion's "Exit status:" paragraph (`  3    the image is invalid`, or a
    /// range `  3-9  …`; a line indented deeper than the rows continues the row above), in order;
    /// empty when it has none or its first row has no code.
    var exitStatuses: [(code: String, meaning: String)] {
        guard let paragraph = discussionParagraphs.first(where: Self.isExitStatusList) else { return [] }
        var rows: [(code: String, meaning: String)] = []
        var rowIndent: Int?
        for line in paragraph.split(separator: "\n").dropFirst() {
            let row = line.trimmingLeadingSpaces()
            let indent = line.count - row.count
            let code = row.prefix { $0.isASCII && ($0.isNumber || $0 == "-") }
            let meaning = row.dropFirst(code.count).trimmingLeadingSpaces()
            let continues = rowIndent.map { indent > $0 } ?? false
            if !continues, code.first?.isNumber == true, !meaning.isEmpty {
                rowIndent = indent
                rows.append((code: String(code), meaning: String(meaning)))
            } else if let last = rows.indices.last {
                rows[last].meaning += " " + row
            } else {
                return []
            }
        }
        return rows
    }

    /// The paragraph that lists a command's exit statuses, as every discussion ends.
    static func isExitStatusList(_ paragraph: String) -> Bool {
        paragraph.hasPrefix("Exit status:\n")
    }
}

private extension StringProtocol {
    func trimmingLeadingSpaces() -> SubSequence {
        drop { $0 == " " }
    }
}
