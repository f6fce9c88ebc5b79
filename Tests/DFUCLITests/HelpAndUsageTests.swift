import Foundation
import Testing

/// The command line itself: help, version, and usage errors (exit 2, one line plus where to look).
@Suite struct HelpAndUsageTests {
    @Test func rootHelpListsCommandsAndExitsZero() throws {
        let run = try DFURun.run(["--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout.contains("USAGE: dfu <command> [options]"))
        #expect(run.stdout.contains("\n  verify "))
        #expect(run.stdout.contains("--version"))
        #expect(run.stderr.isEmpty)
    }

    @Test func helpCommandAndHelpFlagPrintTheSameText() throws {
        let viaCommand = try DFURun.run(["help", "verify"])
        let viaFlag = try DFURun.run(["verify", "--help"])
        let viaShortFlag = try DFURun.run(["verify", "some.bin", "-h"])
        #expect(viaCommand.exitCode == 0 && viaFlag.exitCode == 0 && viaShortFlag.exitCode == 0)
        #expect(viaCommand.stdout == viaFlag.stdout)
        #expect(viaShortFlag.stdout == viaFlag.stdout)
        #expect(try DFURun.run(["help"]).stdout == DFURun.run(["--help"]).stdout)
    }

    /// A snapshot: help is generated from the declarations, so a change here is a change of the CLI.
    @Test func verifyHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["verify", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Check a signed MCUboot image offline: format, hash, signature, key hash.

            USAGE: dfu verify <IMAGE> [--key <PUB.pem>] [--json] [--verbose]

            ARGUMENTS:
              <IMAGE>                 The image to check, as written by 'imgtool sign'.

            OPTIONS:
              --key <PUB.pem>         Public key (PEM) the image should be signed with.
              --json                  Print the result as one JSON object on one line of
                                      stdout instead of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            Without --key, dfu checks the structure and the SHA-256 only and says the
            signature was not checked. Exit status: 0 when everything checked passed, 3 when
            the image is invalid, the key cannot be used or a file cannot be read, 2 for a
            usage error.

            """)
    }

    @Test func versionPrintsNameAndSemanticVersion() throws {
        let run = try DFURun.run(["--version"])
        #expect(run.exitCode == 0)
        #expect(run.stdout.wholeMatch(of: /dfu \d+\.\d+\.\d+\n/) != nil, "got \(run.stdout.debugDescription)")
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'", "see 'dfu --help'"),
        (["verfy"], "unknown command 'verfy' (did you mean 'verify'?)", "see 'dfu --help'"),
        ([], "no command given", "see 'dfu --help'"),
        (["--frob"], "unknown option '--frob'", "see 'dfu --help'"),
        (["help", "nosuch"], "unknown command 'nosuch'", "see 'dfu --help'"),
        (["verify", "--frob", "x.bin"], "unknown option '--frob'", "see 'dfu verify --help'"),
        (["verify", "--kye", "k.pem", "x.bin"], "unknown option '--kye' (did you mean --key?)", "see 'dfu verify --help'"),
        (["verify", "-q", "x.bin"], "unknown option '-q'", "see 'dfu verify --help'"),
        (["verify"], "missing argument <IMAGE>", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--key"], "--key needs a value <PUB.pem>", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--key", "--json"], "--key needs a value <PUB.pem>", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--json=yes"], "--json does not take a value", "see 'dfu verify --help'"),
        (["verify", "a.bin", "b.bin"], "unexpected argument 'b.bin'", "see 'dfu verify --help'"),
        (["verify", ""], "IMAGE must not be empty", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--key="], "--key needs a path to a PEM public key", "see 'dfu verify --help'"),
    ])
    func usageErrorExitsTwoWithMessageAndHelpPointer(arguments: [String], message: String, pointer: String) throws {
        let run = try DFURun.run(arguments)
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("dfu: error: \(message)\n"), "stderr: \(run.stderr)")
        #expect(run.stderr.hasSuffix("\(pointer)\n"), "stderr: \(run.stderr)")
        if !arguments.isEmpty { #expect(run.stdout.isEmpty) }
    }

    /// `validate()` runs before `run()`: a bad command line never touches the files it names.
    @Test func usageErrorIsReportedBeforeAnyFileIsRead() throws {
        let run = try DFURun.run(["verify", "does-not-exist.bin", "--key="])
        #expect(run.exitCode == 2)
        #expect(!run.stderr.contains("cannot read"))
    }

    @Test func doubleDashEndsOptions() throws {
        let run = try DFURun.run(["verify", "--", "--json"])
        #expect(run.exitCode == 3)
        #expect(run.stderr.contains("dfu: error: cannot read --json: No such file or directory"))
        #expect(run.stdout.isEmpty)
    }

    @Test func optionValueCanFollowAnEqualsSign() throws {
        let spaced = try DFURun.run(["verify", "firmware-samples/images/blinky-ed25519-1.1.0.signed.bin",
                                     "--key", "firmware-samples/keys/TEST-ONLY-ed25519.pub.pem"])
        let joined = try DFURun.run(["verify", "--key=firmware-samples/keys/TEST-ONLY-ed25519.pub.pem",
                                     "firmware-samples/images/blinky-ed25519-1.1.0.signed.bin"])
        #expect(spaced.exitCode == 0 && joined.exitCode == 0)
        #expect(spaced.stdout == joined.stdout)
        #expect(joined.stdout.hasSuffix("OK: image verified\n"))
    }
}
