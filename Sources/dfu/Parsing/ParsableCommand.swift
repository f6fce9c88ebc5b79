import DFUCore
import ExitCodes

/// A set of command-line arguments: a struct whose stored properties are `@Option`, `@Flag` and
/// `@Argument` declarations (help text and default beside each) or nested groups such as
/// `CommonOptions`. `init()` gives the declarations; the parser builds the parsed value through
/// `Decodable` (see `ArgumentValueDecoder`), so every stored property must be one of those.
protocol ParsableArguments: Decodable, Sendable {
    init()
}

/// One subcommand of `dfu`. Its static strings feed the generated help; `validate()` runs after
/// parsing and before `run(_:)`, so checks that span options fail as usage errors (exit 2) before
/// any work starts.
protocol ParsableCommand: ParsableArguments {
    /// The word after `dfu` (`verify`).
    static var name: String { get }
    /// One line for the command list and the help overview.
    static var abstract: String { get }
    /// Paragraphs printed at the end of the command's help, separated by blank lines and wrapped to
    /// 80 columns, except a paragraph with an indented line (examples, exit statuses), which keeps
    /// its lines as written.
    static var discussion: String { get }

    func validate() throws(UsageError)

    /// Does the work and prints its result. Returns the exit status for a result it has reported
    /// itself (a verification that failed is a result, not an error); throws for a failure that the
    /// caller should report as `dfu: error: …`.
    func run(_ console: Console) async throws(DFUError) -> ExitStatus
}

extension ParsableCommand {
    func validate() throws(UsageError) {}
}

extension ParsableCommand {
    /// The command from `words` (what follows its name), parsed and validated as the CLI does:
    /// a `UsageError` for a mistake in the words, any other error for a mistake in the declarations.
    static func parse(_ words: [String]) throws -> Self {
        let definitions = try ArgumentCollector.definitions(of: Self.self)
        let values = try CommandLineParser(definitions: definitions).parse(words)
        let command = try Self(from: ArgumentValueDecoder(values: values))
        try command.validate()
        return command
    }
}
