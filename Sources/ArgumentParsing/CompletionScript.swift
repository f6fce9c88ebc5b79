/// The shells completion scripts are written for (`dfu --generate-completion-script bash|zsh`),
/// and what every script is made from: the commands' declarations, as help reads them.
public enum CompletionScript {
    public enum Shell: String, CaseIterable, Sendable {
        case bash
        case zsh
    }

    /// What the scripts complete before a command: the command names (with one line each, for
    /// shells that show it) and the tool's own options.
    public struct Tool: Sendable {
        var name: String
        var commands: [CommandReference]
        /// `help`: no declarations of its own; its one argument is a command's name.
        var helpCommand: (name: String, abstract: String)
        var options: [(names: [String], help: String)]
        /// Words that gather commands (`image` for `image list`, …): completed first, then their members.
        var groups: [CommandGroup]

        public init(name: String, commands: [CommandReference], helpCommand: (name: String, abstract: String),
                    options: [(names: [String], help: String)], groups: [CommandGroup] = []) {
            self.name = name
            self.commands = commands
            self.helpCommand = helpCommand
            self.options = options
            self.groups = groups
        }

        /// The first word of each command, a group's once, in order (what `dfu <TAB>` offers), with
        /// a line each.
        var topLevel: [(name: String, abstract: String)] {
            var entries: [(name: String, abstract: String)] = []
            for command in commands {
                let group = groups.first { command.name.hasPrefix($0.name + " ") }
                let entry = group.map { (name: $0.name, abstract: $0.abstract) } ?? (name: command.name, abstract: command.abstract)
                if !entries.contains(where: { $0.name == entry.name }) { entries.append(entry) }
            }
            return entries
        }

        var commandNames: [String] { topLevel.map(\.name) + [helpCommand.name] }

        /// The members of `group` by their second word, with their abstracts.
        func members(of group: CommandGroup) -> [(word: String, command: CommandReference)] {
            commands.filter { $0.name.hasPrefix(group.name + " ") }.map { (String($0.name.dropFirst(group.name.count + 1)), $0) }
        }
    }

    public static func script(for shell: Shell, _ tool: Tool) -> String {
        switch shell {
        case .bash: BashCompletionScript.script(tool)
        case .zsh: ZshCompletionScript.script(tool)
        }
    }

    /// Every name an option goes by, short first: `-v`, `--verbose`.
    static func names(_ definition: ArgumentDefinition) -> [String] {
        [definition.shortName.map { "-\($0)" }, definition.longName.map { "--\($0)" }].compactMap { $0 }
    }

    /// Help's first sentence, for the one line a menu has room for: up to a full stop before a
    /// capital (not the one in "e.g. hci1").
    static func firstSentence(_ help: String) -> String {
        var index = help.startIndex
        while let stop = help[index...].firstRange(of: ". ") {
            if help[stop.upperBound...].first?.isUppercase == true { return String(help[..<stop.lowerBound]) }
            index = stop.upperBound
        }
        return help
    }
}
