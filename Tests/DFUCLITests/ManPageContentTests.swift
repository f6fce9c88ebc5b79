// In-process tests of the `dfu` executable target (see DeviceSpecTests.swift for the condition).
#if DFU_CLI_UNIT_TESTS
@testable import ArgumentParsing
@testable import dfu
import Testing

/// The man page documents every command and every option of each, found through the same
/// declarations the parser reads, and the shell completions read values from them.
@Suite struct ManPageContentTests {
    /// The page's text from `.SS "dfu NAME"` to the next section or subsection.
    private func section(of name: String, in page: String) throws -> String {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == ".SS \"dfu \(name)\"" }, "no section for \(name)")
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SS ") || $0.hasPrefix(".SH ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    @Test func manualHasASectionWithEveryOptionForEveryCommand() throws {
        let page = try RootCommand.manual()
        for type in RootCommand.subcommands {
            let command = try CommandReference(type)
            let text = try section(of: command.name, in: page)
            #expect(page.contains("\\fBdfu \(command.name)\\fR"), "SYNOPSIS lacks \(command.name)")
            for definition in command.definitions {
                switch definition.kind {
                case .positional(let valueName):
                    #expect(text.contains("\\fI\(ManPageFormatter.escape(valueName))\\fR"),
                            "\(command.name): no \(valueName)")
                case .flag, .option:
                    if let long = definition.longName {
                        #expect(text.contains("\\fB\\-\\-\(ManPageFormatter.escape(long))\\fR"),
                                "\(command.name): no --\(long)")
                    }
                    if let short = definition.shortName {
                        #expect(text.contains("\\fB\\-\(short)\\fR"), "\(command.name): no -\(short)")
                    }
                }
            }
            #expect(!command.exitStatuses.isEmpty, "\(command.name)'s discussion lists no exit statuses")
            for row in command.exitStatuses {
                #expect(page.contains(".B \(row.code)\n\(ManPageFormatter.escape(row.meaning))"))
            }
        }
    }

    @Test func completionScriptsNameEveryCommandAndOption() throws {
        for shell in CompletionScript.Shell.allCases {
            let script = try RootCommand.completionScript(for: shell)
            for type in RootCommand.subcommands {
                let command = try CommandReference(type)
                // A group's member (`image list`) is its second word in the group's dispatch in zsh.
                let words = command.name.split(separator: " ")
                let dispatched = words.count == 2
                    && script.contains("\(words[1])) _dfu_\(words[0])_\(words[1]) ;;")
                #expect(script.contains(command.name) || dispatched, "\(shell): no \(command.name)")
                for name in command.options.compactMap(\.longName) {
                    #expect(script.contains("--\(name)"), "\(shell): \(command.name) lacks --\(name)")
                }
            }
        }
    }
}
#endif
