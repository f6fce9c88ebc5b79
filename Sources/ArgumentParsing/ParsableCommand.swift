/// A set of command-line arguments: a struct whose stored properties are `@Option`, `@Flag` and
/// `@Argument` declarations (help text and default beside each) or nested groups of them. `init()`
/// gives the declarations; the parser builds the parsed value through `Decodable` (see
/// `ArgumentValueDecoder`), so every stored property must be one of those.
public protocol ParsableArguments: Decodable, Sendable {
    init()
}

/// One command: a subcommand of a tool (`dfu verify`), or a tool that is one command
/// (`dfu-bench`). Its static strings feed the generated help; `validate()` runs after parsing, so
/// checks that span options fail as usage errors before any work starts. What running it means is
/// the tool's to declare.
public protocol ParsableCommand: ParsableArguments {
    /// The word that names it after its tool (`verify`), or the tool's name for a tool that is one
    /// command.
    static var name: String { get }
    /// One line for the command list and the help overview.
    static var abstract: String { get }
    /// Paragraphs printed at the end of the command's help, separated by blank lines and wrapped to
    /// 80 columns, except a paragraph with an indented line (examples, exit statuses), which keeps
    /// its lines as written.
    static var discussion: String { get }

    func validate() throws(UsageError)
}

extension ParsableCommand {
    public func validate() throws(UsageError) {}
}

/// What a command line asks of a command: its help, or a run with the arguments it gave.
public enum CommandRequest<Command: ParsableCommand>: Sendable {
    case help(String)
    case run(Command)
}

extension ParsableCommand {
    /// The command from `words` (what follows its name), parsed and validated: a `UsageError` for a
    /// mistake in the words, any other error for a mistake in the declarations.
    public static func parse(_ words: [String]) throws -> Self {
        let definitions = try ArgumentCollector.definitions(of: Self.self)
        return try parse(words, definitions: definitions)
    }

    /// What `words` ask for: the help when they hold `-h` or `--help` before any `--`, whatever else
    /// is wrong in them; else the command, parsed and validated. `commandPath` is how help names the
    /// command (`dfu verify`, `dfu-bench`). Throws as `parse(_:)`.
    public static func request(_ words: [String], commandPath: String) throws -> CommandRequest<Self> {
        let definitions = try ArgumentCollector.definitions(of: Self.self)
        if CommandLineParser.requestsHelp(words) {
            return .help(help(commandPath: commandPath, definitions: definitions))
        }
        return .run(try parse(words, definitions: definitions))
    }

    /// The command's help: overview, usage, arguments, options, discussion.
    public static func help(commandPath: String) throws(DeclarationError) -> String {
        help(commandPath: commandPath, definitions: try ArgumentCollector.definitions(of: Self.self))
    }

    private static func parse(_ words: [String], definitions: [ArgumentDefinition]) throws -> Self {
        let values = try CommandLineParser(definitions: definitions).parse(words)
        let command = try Self(from: ArgumentValueDecoder(values: values))
        try command.validate()
        return command
    }

    private static func help(commandPath: String, definitions: [ArgumentDefinition]) -> String {
        HelpFormatter.commandHelp(commandPath: commandPath, abstract: abstract, discussion: discussion,
                                  definitions: definitions)
    }
}
