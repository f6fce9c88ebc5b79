@testable import ArgumentParsing
import Testing

/// The parsing rules every tool gets (docs/cli.md, "Parsing rules"), through `ParsableCommand`'s
/// public entry points.
@Suite struct CommandLineParserTests {
    private struct CopyCommand: ParsableCommand {
        static let name = "copy"
        static let abstract = "Test command."
        static let discussion = ""

        @Argument(valueName: "FILE", help: "What to copy.")
        var source: String

        @Argument(valueName: "DEST", help: "Where to.")
        var destination: String?

        @Option(short: "n", valueName: "N", help: "How many copies.")
        var count = 1

        @Option(valueName: "KEY", help: "A key.")
        var key: String?

        @Flag(short: "v", help: "Say more.")
        var verbose = false

        func validate() throws(UsageError) {
            if count < 1 { throw UsageError("--count must be at least 1") }
        }
    }

    private func usageError(_ words: [String]) -> String? {
        do {
            _ = try CopyCommand.parse(words)
            return nil
        } catch {
            return (error as? UsageError)?.message ?? "not a usage error: \(error)"
        }
    }

    @Test func optionsTakeTheirValueAfterASpaceOrAnEqualsSignAndShortNamesWork() throws {
        let command = try CopyCommand.parse(["a.bin", "--count", "2", "--key=k.pem", "-v", "b.bin"])
        #expect(command.source == "a.bin")
        #expect(command.destination == "b.bin")
        #expect(command.count == 2)
        #expect(command.key == "k.pem")
        #expect(command.verbose)
        #expect(try CopyCommand.parse(["a", "-n", "3"]).count == 3)
    }

    @Test func leftOutArgumentsAreTheirDefaults() throws {
        let command = try CopyCommand.parse(["a.bin"])
        #expect(command.destination == nil)
        #expect(command.count == 1)
        #expect(command.key == nil)
        #expect(!command.verbose)
    }

    @Test func doubleDashEndsOptionsAndALoneDashIsPositional() throws {
        let command = try CopyCommand.parse(["--", "-odd", "--verbose"])
        #expect(command.source == "-odd")
        #expect(command.destination == "--verbose")
        #expect(!command.verbose)
        #expect(try CopyCommand.parse(["-"]).source == "-")
    }

    @Test func mistakesAreUsageErrorsThatNameTheArgument() {
        #expect(usageError([]) == "missing argument <FILE>")
        #expect(usageError(["a", "--cont", "2"]) == "unknown option '--cont' (did you mean --count?)")
        #expect(usageError(["a", "-x"]) == "unknown option '-x'")
        #expect(usageError(["a", "--verbose=yes"]) == "--verbose does not take a value")
        #expect(usageError(["a", "--key", "--verbose"]) == "--key needs a value <KEY>")
        #expect(usageError(["a", "--count", "two"]) == "invalid value 'two' for --count: expected an integer")
        #expect(usageError(["a", "b", "c"]) == "unexpected argument 'c'")
        #expect(usageError(["a", "--count", "0"]) == "--count must be at least 1")
    }

    @Test func helpWinsOverEveryOtherMistakeUnlessItComesAfterDoubleDash() throws {
        guard case .help(let text) = try CopyCommand.request(["--bogus", "-h"], commandPath: "tool copy") else {
            Issue.record("-h did not ask for help")
            return
        }
        #expect(text.hasPrefix("OVERVIEW: Test command.\n\nUSAGE: tool copy <FILE> [<DEST>]"), "\(text)")
        guard case .run(let command) = try CopyCommand.request(["a", "--", "--help"], commandPath: "tool copy") else {
            Issue.record("--help after -- asked for help")
            return
        }
        #expect(command.destination == "--help")
    }

    private struct TwiceDeclared: ParsableCommand {
        static let name = "twice"
        static let abstract = "Test command."
        static let discussion = ""
        @Flag(help: "One.")
        var json = false
        @Option(name: "json", help: "Two.")
        var format = "text"
    }

    private struct Undeclared: ParsableCommand {
        static let name = "undeclared"
        static let abstract = "Test command."
        static let discussion = ""
        var plain = 0
    }

    @Test func declarationMistakesAreNotUsageErrors() {
        #expect(throws: DeclarationError.self) { try TwiceDeclared.help(commandPath: "twice") }
        #expect(throws: DeclarationError.self) { try Undeclared.parse([]) }
    }

    @Test func aMistypedNameIsMatchedToAnEditOrAUniquePrefix() {
        #expect(closestName(to: "flsh", among: ["flash", "verify"]) == "flash")
        #expect(closestName(to: "ver", among: ["flash", "verify"]) == "verify")
        #expect(closestName(to: "zzzzzz", among: ["flash", "verify"]) == nil)
    }

    @Test func onlyNamesWithinTwoCharactersOfTheTypedLengthAreSuggested() {
        // Two edits: a letter dropped and one added, or two added; three are too many.
        #expect(closestName(to: "flashed", among: ["flash", "verify"]) == "flash")
        #expect(closestName(to: "fla", among: ["flash", "verify"]) == "flash")
        #expect(closestName(to: "flashing", among: ["flash", "verify"]) == nil)
        #expect(closestName(to: "device-sn", among: ["device", "device-serial"]) == nil)
        #expect(closestName(to: String(repeating: "x", count: 100_000), among: ["device", "image"]) == nil)
    }
}
