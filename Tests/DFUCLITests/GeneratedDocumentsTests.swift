import Foundation
import Testing

/// The man page and the shell completions that `make install` installs: the committed files are
/// what the binary generates from the command declarations (regenerate them with
/// `scripts/regen-help-snapshots.py`), the page renders cleanly, and the scripts complete.
@Suite struct GeneratedDocumentsTests {
    static let documents: [(path: String, arguments: [String])] = [
        ("docs/dfu.1", ["--generate-manual"]),
        ("completions/dfu.bash", ["--generate-completion-script", "bash"]),
        ("completions/_dfu", ["--generate-completion-script", "zsh"]),
    ]

    @Test(arguments: documents.map(\.path))
    func committedDocumentIsWhatTheBinaryGenerates(path: String) throws {
        let arguments = try #require(Self.documents.first { $0.path == path }).arguments
        let run = try DFURun.run(arguments)
        #expect(run.exitCode == 0)
        #expect(run.stderr.isEmpty)
        let committed = try String(contentsOf: DFUBinary.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        #expect(run.stdout == committed,
                "\(path) differs from 'dfu \(arguments.joined(separator: " "))': run scripts/regen-help-snapshots.py")
    }

    @Test func generatorsAreNotInTheHelp() throws {
        let help = try DFURun.run(["--help"]).stdout
        #expect(!help.contains("--generate"))
    }

    @Test(arguments: [["--generate-completion-script"], ["--generate-completion-script", "fish"],
                      ["--generate-manual", "extra"]])
    func generatorMisuseIsAUsageError(arguments: [String]) throws {
        let run = try DFURun.run(arguments)
        #expect(run.exitCode == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("dfu: error: "))
    }

    @Test(.enabled(if: Tool.path("groff") != nil, "needs groff (groff-base)"))
    func manualRendersWithoutWarnings() throws {
        let result = try Tool.run("groff", ["-man", "-Tutf8", "-ww", "-z", "docs/dfu.1"])
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "groff warns: \(result.output)")
    }

    @Test(.enabled(if: Tool.path("bash") != nil, "needs bash"))
    func bashCompletesCommandsOptionsAndTheirValues() throws {
        #expect(try bashCompletions(["dfu", "fl"]) == ["flash"])
        #expect(try bashCompletions(["dfu", "help", "s"]) == ["scan", "sim"])
        #expect(try bashCompletions(["dfu", "flash", "--mo"]) == ["--mode"])
        #expect(try bashCompletions(["dfu", "flash", "--mode", "test-"]) == ["test-confirm", "test-only"])
        // --mode=VALUE: bash splits the word at '='.
        #expect(try bashCompletions(["dfu", "flash", "--mode", "=", "u"]) == ["upload-only"])
        #expect(try bashCompletions(["dfu", "sim", "--phy", ""]) == ["1M", "2M"])
        #expect(try bashCompletions(["dfu", "flash", "--min-battery", ""]) == [])
        #expect(try bashCompletions(["dfu", "verify", "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub"])
            == ["firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"])
        #expect(try bashCompletions(["dfu", "flash", "--key", "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pu"])
            == ["firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"])
    }

    @Test(.enabled(if: Tool.path("zsh") != nil, "needs zsh"))
    func zshScriptParses() throws {
        let result = try Tool.run("zsh", ["-n", "completions/_dfu"])
        #expect(result.status == 0, "\(result.output)")
    }

    /// What `_dfu` leaves in COMPREPLY for `words`, the last being the word under the cursor.
    private func bashCompletions(_ words: [String]) throws -> [String] {
        let script = #"source completions/dfu.bash; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _dfu; printf '%s\n' "${COMPREPLY[@]}""#
        let result = try Tool.run("bash", ["-c", script, "bash"] + words)
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }
}

/// A program from PATH, run from the repository root with its output (stdout and stderr together).
private enum Tool {
    static func path(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path(name)))
        process.arguments = arguments
        process.currentDirectoryURL = DFUBinary.repositoryRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
