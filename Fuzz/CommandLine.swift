// The command line as a whole: `dfu`'s words after the program name, separated by NUL bytes, as a
// shell hands them over. The first word names a command (`flash`) or a group and its member
// (`image list`), as `CLI` dispatches them; the rest is parsed and validated by that command's
// declarations (ArgumentParsing: options, flags, bundles, `--`, values and their types, then the
// command's own `validate()`), which is all `CLI` does before it runs a command. Nothing is run.
//
// Checked, beyond not crashing: any words are a command to run, its help, or a usage error (a
// `UsageError`, which dfu prints with exit 2); any other error would mean the command declares its
// arguments wrongly, which `CLI` reports as dfu's own bug; a help text is never empty; and parsing
// the same words twice gives the same outcome.
import ArgumentParsing
@testable import dfu

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let words = String(decoding: FuzzInput(data, size).remaining, as: UTF8.self)
        .split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
    guard let first = words.first else { return 0 }
    if let group = RootCommand.group(named: first) {
        guard words.count > 1, let command = RootCommand.subcommand(named: group.commandName(words[1])) else { return 0 }
        check(command, Array(words.dropFirst(2)))
    } else if let command = RootCommand.subcommand(named: first) {
        check(command, Array(words.dropFirst()))
    }
    return 0
}

/// What `CLI` would make of `words` for `type`: run, help, or a usage error; the same twice.
private func check<Command: DFUCommand>(_ type: Command.Type, _ words: [String]) {
    let first = outcome(type, words)
    require(outcome(type, words) == first, "dfu \(Command.name): the same words parsed twice gave different outcomes")
}

private func outcome<Command: DFUCommand>(_ type: Command.Type, _ words: [String]) -> String {
    do {
        switch try Command.request(words, commandPath: "dfu " + Command.name) {
        case .help(let text):
            require(!text.isEmpty, "dfu \(Command.name): an empty help text")
            return "help"
        case .run:
            return "run"
        }
    } catch let error as UsageError {
        return "usage: \(error)"
    } catch {
        require(false, "dfu \(Command.name) declares its arguments wrongly: \(error)")
        return ""
    }
}
