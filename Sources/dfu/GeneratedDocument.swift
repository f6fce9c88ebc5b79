import ArgumentParsing

/// The hidden entries `make install` and the regeneration script use: `dfu --generate-manual`
/// prints the man page, `dfu --generate-completion-script bash|zsh` a completion script (the names
/// swift-argument-parser gives them). Not in `dfu --help`: they are for packaging, not for users.
enum GeneratedDocument {
    static let manualOption = "--generate-manual"
    static let completionOption = "--generate-completion-script"

    /// `words` starts with one of the two options.
    static func print(_ words: [String], console: Console) -> Outcome {
        let document: String
        do {
            switch (words.first, words.count) {
            case (manualOption, 1):
                document = try RootCommand.manual()
            case (completionOption, 2):
                guard let shell = CompletionScript.Shell(rawValue: words[1]) else {
                    return usage("unknown shell '\(words[1])' (expected \(shellNames))", console: console)
                }
                document = try RootCommand.completionScript(for: shell)
            case (completionOption, 1):
                return usage("\(completionOption) needs a shell: \(shellNames)", console: console)
            default:
                return usage("unexpected argument '\(words[words.count > 1 ? 1 : 0])'", console: console)
            }
        } catch {
            return CLI.internalFailure("a command declares its arguments wrongly: \(error)", console: console)
        }
        // The documents end with their own newline; `out` adds one.
        console.out(String(document.dropLast()))
        return .finished(.success)
    }

    private static var shellNames: String {
        CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: " or ")
    }

    private static func usage(_ message: String, console: Console) -> Outcome {
        CLI.usageFailure(UsageError(message), helpCommand: "dfu --help", console: console)
    }
}
