/// Commands that share their first word, as `dfu image list` and `dfu image erase` share `image`
/// (git's and mcumgr's shape). Each member is an ordinary `ParsableCommand` whose `name` is both
/// words, so its help, man page section and completion are built as any command's; the group adds
/// one entry to the tool's help, its own help (`dfu image --help`), and the dispatch of its second
/// word.
public struct CommandGroup: Sendable {
    /// The first word (`image`).
    public var name: String
    /// One line for the root command list and the group's help.
    public var abstract: String

    public init(name: String, abstract: String) {
        self.name = name
        self.abstract = abstract
    }

    /// Whether `command` belongs to the group: its name is the group's word and one more.
    public func contains(_ command: any ParsableCommand.Type) -> Bool {
        command.name.hasPrefix(name + " ")
    }

    /// The word after the group's for a member (`list` of `image list`).
    func word(of command: any ParsableCommand.Type) -> String {
        String(command.name.dropFirst(name.count + 1))
    }

    /// The name of the member that `word` names (`image list` for `list`).
    public func commandName(_ word: String) -> String {
        name + " " + word
    }

    /// `dfu image --help`: the overview, usage and the members with their abstracts.
    public func help(toolName: String, among commands: [any ParsableCommand.Type]) -> String {
        let members = commands.filter(contains).map { (name: word(of: $0), abstract: $0.abstract) }
        return HelpFormatter.groupHelp(commandPath: "\(toolName) \(name)", abstract: abstract, commands: members)
    }
}
