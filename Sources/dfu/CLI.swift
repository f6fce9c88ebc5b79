import ArgumentParsing
import DFUCore

/// Turns the command line into one run of one command and its `Outcome`. Help, `--version` and usage
/// errors are handled here, so a command's `run` only sees arguments that parsed and validated; so
/// are the hidden `--generate-manual` and `--generate-completion-script` (`GeneratedDocument`).
enum CLI {
    static func run(arguments: [String], console: Console) async -> Outcome {
        let words = Array(arguments.dropFirst())
        guard let first = words.first else {
            console.error(RootCommand.help)
            return usageFailure(UsageError("no command given"), helpCommand: "dfu --help", console: console)
        }
        switch first {
        case "-h", "--help":
            console.out(RootCommand.help)
            return .finished(.success)
        case "--version":
            guard words.count == 1 else {
                return usageFailure(UsageError("unexpected argument '\(words[1])'"),
                                    helpCommand: "dfu --help", console: console)
            }
            console.out("dfu \(DFUVersion.current)")
            return .finished(.success)
        case "help":
            return showHelp(for: Array(words.dropFirst()), console: console)
        case GeneratedDocument.manualOption, GeneratedDocument.completionOption:
            return GeneratedDocument.print(words, console: console)
        default:
            break
        }
        if first.hasPrefix("-") {
            return usageFailure(UsageError("unknown option '\(first)'"),
                                helpCommand: "dfu --help", console: console)
        }
        if let group = RootCommand.group(named: first) {
            return await run(group, words: Array(words.dropFirst()), console: console)
        }
        guard let command = RootCommand.subcommand(named: first) else {
            return usageFailure(unknownCommand(first), helpCommand: "dfu --help", console: console)
        }
        return await run(command, words: Array(words.dropFirst()), console: console)
    }

    /// `dfu image …`: the group's help, or the member its next word names.
    private static func run(_ group: CommandGroup, words: [String], console: Console) async -> Outcome {
        let helpCommand = "dfu \(group.name) --help"
        let help = group.help(toolName: RootCommand.name, among: RootCommand.subcommands)
        guard let word = words.first else {
            console.error(help)
            return usageFailure(UsageError("no \(group.name) command given"), helpCommand: helpCommand, console: console)
        }
        if word == "-h" || word == "--help" {
            console.out(help)
            return .finished(.success)
        }
        guard let command = RootCommand.subcommand(named: group.commandName(word)) else {
            return usageFailure(unknownCommand(group.name + " " + word), helpCommand: helpCommand, console: console)
        }
        return await run(command, words: Array(words.dropFirst()), console: console)
    }

    /// Parses, validates and runs one subcommand.
    private static func run<Command: DFUCommand>(_ type: Command.Type, words: [String],
                                                 console: Console) async -> Outcome {
        let helpCommand = "dfu \(Command.name) --help"
        let command: Command
        do {
            switch try Command.request(words, commandPath: commandPath(Command.self)) {
            case .help(let text):
                console.out(text)
                return .finished(.success)
            case .run(let parsed):
                command = parsed
            }
        } catch let error as UsageError {
            return usageFailure(error, helpCommand: helpCommand, console: console)
        } catch {
            return internalFailure("\(Command.name) declares its arguments wrongly: \(error)", console: console)
        }

        do {
            return .finished(try await command.run(console))
        } catch {
            console.error("dfu: error: \(error.description)")
            return .failed(error)
        }
    }

    /// `dfu help`, `dfu help verify`.
    private static func showHelp(for words: [String], console: Console) -> Outcome {
        guard let name = words.first else {
            console.out(RootCommand.help)
            return .finished(.success)
        }
        if let group = RootCommand.group(named: name) {
            // `dfu help image`, `dfu help image list`.
            guard let word = words.dropFirst().first else {
                console.out(group.help(toolName: RootCommand.name, among: RootCommand.subcommands))
                return .finished(.success)
            }
            guard words.count == 2 else {
                return usageFailure(UsageError("unexpected argument '\(words[2])'"),
                                    helpCommand: "dfu --help", console: console)
            }
            guard let command = RootCommand.subcommand(named: group.commandName(word)) else {
                return usageFailure(unknownCommand(name + " " + word), helpCommand: "dfu \(name) --help", console: console)
            }
            return showHelp(for: command, console: console)
        }
        guard words.count == 1 else {
            return usageFailure(UsageError("unexpected argument '\(words[1])'"),
                                helpCommand: "dfu --help", console: console)
        }
        guard let command = RootCommand.subcommand(named: name) else {
            return usageFailure(unknownCommand(name), helpCommand: "dfu --help", console: console)
        }
        return showHelp(for: command, console: console)
    }

    private static func showHelp<Command: DFUCommand>(for type: Command.Type, console: Console) -> Outcome {
        do {
            console.out(try Command.help(commandPath: commandPath(Command.self)))
            return .finished(.success)
        } catch {
            return internalFailure("\(Command.name) declares its arguments wrongly: \(error)", console: console)
        }
    }

    /// `dfu verify`: how help names a command.
    private static func commandPath<Command: DFUCommand>(_ type: Command.Type) -> String {
        "\(RootCommand.name) \(Command.name)"
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        // A group's word and its members' full names: 'image lst' finds 'image list'.
        var names = RootCommand.topLevel.map(\.name) + ["help"]
        names += RootCommand.subcommands.map { $0.name }.filter { !names.contains($0) }
        let hint = closestName(to: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        return UsageError("unknown command '\(name)'\(hint)")
    }

    /// One line saying what is wrong, one saying where the right usage is; exit 2.
    static func usageFailure(_ error: UsageError, helpCommand: String, console: Console) -> Outcome {
        console.error("dfu: error: \(error.message)")
        console.error("see '\(helpCommand)'")
        return .failed(.usage(error.message))
    }

    static func internalFailure(_ message: String, console: Console) -> Outcome {
        let error = DFUError.internalError(message)
        console.error("dfu: error: \(error.description)")
        return .failed(error)
    }
}
