/// Commands that share their first word, as `dfu image list` and `dfu image erase` share `image`
/// (git's and mcumgr's shape). Each member is an ordinary `ParsableCommand` whose `name` is both
/// words, so its help, man page section and completion are built as any command's; the group adds
/// one entry to `dfu --help`, its own `dfu image --help`, and the dispatch of its second word.
struct CommandGroup: Sendable {
    /// The first word (`image`).
    var name: String
    /// One line for the root command list and the group's help.
    var abstract: String

    /// Whether `command` belongs to the group: its name is the group's word and one more.
    func contains(_ command: any ParsableCommand.Type) -> Bool {
        command.name.hasPrefix(name + " ")
    }

    /// The word after the group's for a member (`list` of `image list`).
    func word(of command: any ParsableCommand.Type) -> String {
        String(command.name.dropFirst(name.count + 1))
    }

    /// The member named `word`, among `commands`.
    func member(_ word: String, among commands: [any ParsableCommand.Type]) -> (any ParsableCommand.Type)? {
        commands.first { $0.name == name + " " + word }
    }

    /// `dfu image --help`: the overview, usage and the members with their abstracts.
    func help(toolName: String, among commands: [any ParsableCommand.Type]) -> String {
        let members = commands.filter(contains).map { (name: word(of: $0), abstract: $0.abstract) }
        return HelpFormatter.groupHelp(commandPath: "\(toolName) \(name)", abstract: abstract, commands: members)
    }
}
