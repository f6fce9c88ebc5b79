@testable import ArgumentParsing
import Testing

/// An `@Option` whose property is an array collects every occurrence; `@OptionGroup(title:)` lists a
/// group under its own heading.
@Suite struct RepeatableOptionTests {
    private struct Group: ParsableArguments {
        @Option(valueName: "SECONDS", help: "A wait.")
        var wait = 5.0
        init() {}
    }

    private struct TagCommand: ParsableCommand {
        static let name = "tag"
        static let abstract = "Test command."
        static let discussion = ""

        @Option(valueName: "TAG", help: "A tag.")
        var tag: [String] = []

        @Option(valueName: "N", help: "A number.")
        var number: [Int] = [7]

        @Option(valueName: "NAME", help: "One name.")
        var name: String?

        @OptionGroup(title: "WAIT OPTIONS")
        var waits = Group()
    }

    private func parse(_ words: [String]) throws -> TagCommand {
        let definitions = try ArgumentCollector.definitions(of: TagCommand.self)
        let values = try CommandLineParser(definitions: definitions).parse(words)
        return try TagCommand(from: ArgumentValueDecoder(values: values))
    }

    private func help() throws -> String {
        HelpFormatter.commandHelp(commandPath: "dfu tag", abstract: TagCommand.abstract, discussion: "",
                                  definitions: try ArgumentCollector.definitions(of: TagCommand.self))
    }

    @Test func anArrayOptionCollectsEveryOccurrenceInOrder() throws {
        let command = try parse(["--tag", "b", "--name", "x", "--tag=a", "--tag", "b"])
        #expect(command.tag == ["b", "a", "b"])
        #expect(command.name == "x")
    }

    @Test func anArrayOptionLeftOutIsItsDefaultAndGivenReplacesIt() throws {
        let none = try parse([])
        #expect(none.tag == [])
        #expect(none.number == [7])
        #expect(try parse(["--number", "1", "--number", "2"]).number == [1, 2])
    }

    @Test func aSingleValueOptionGivenTwiceKeepsTheLast() throws {
        #expect(try parse(["--name", "first", "--name", "second"]).name == "second")
    }

    @Test func aBadValueInAnyOccurrenceIsAUsageErrorNamingTheOption() {
        #expect {
            _ = try parse(["--number", "1", "--number", "two"])
        } throws: { error in
            (error as? UsageError)?.message == "invalid value 'two' for --number: expected an integer"
        }
        #expect {
            _ = try parse(["--tag"])
        } throws: { error in
            (error as? UsageError)?.message == "--tag needs a value <TAG>"
        }
    }

    @Test func helpSaysAnArrayOptionCanBeRepeated() throws {
        let text = try help()
        #expect(text.contains("[--tag <TAG> ...]"), "\(text)")
        #expect(text.contains("  --tag <TAG>             A tag. (can be repeated)\n"), "\(text)")
        #expect(text.contains("  --number <N>            A number. (default: 7; can be repeated)\n"), "\(text)")
        #expect(text.contains("  --name <NAME>           One name.\n"), "\(text)")
    }

    @Test func anOptionGroupWithATitleIsListedUnderIt() throws {
        let text = try help()
        #expect(text.hasSuffix("""
            OPTIONS:
              --tag <TAG>             A tag. (can be repeated)
              --number <N>            A number. (default: 7; can be repeated)
              --name <NAME>           One name.
              -h, --help              Show this help.

            WAIT OPTIONS:
              --wait <SECONDS>        A wait. (default: 5.0)
            """), "\(text)")
        // Parsing does not care about titles.
        #expect(try parse(["--wait", "2"]).waits.wait == 2)
    }
}
