import Foundation
import Testing

/// `dfu verify` on the Nordic DFU packages in firmware-samples/nordic, held to
/// firmware-samples/nordic-expected.tsv: exit 0 or 3, the per-image table, the verdict that names the problem.
@Suite struct VerifyPackageCLITests {
    struct Row: Sendable, CustomStringConvertible {
        var file: String
        var key: String?
        var flags: [String]
        var passes: Bool
        var problem: String?
        var description: String { ([file] + (key.map { ["--key", $0] } ?? []) + flags).joined(separator: " ") }
        var arguments: [String] {
            ["verify", "firmware-samples/\(file)"] + (key.map { ["--key", "firmware-samples/\($0)"] } ?? []) + flags
        }
    }

    static let rows: [Row] = {
        let url = SampleTable.directory.appendingPathComponent("nordic-expected.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count >= 5 }
            .map { Row(file: $0[0], key: $0[1] == "-" ? nil : $0[1], flags: $0[2] == "-" ? [] : [$0[2]],
                       passes: $0[3] == "OK", problem: $0[4] == "-" ? nil : $0[4]) }
    }()

    /// The words a user sees for each problem word of the TSV.
    static func wording(_ problem: String) -> Regex<Substring>? {
        switch problem {
        case "hash-mismatch": return /firmware hash mismatch/
        case "signature-invalid": return /signature does not verify/
        case "signature-malformed": return /signature is 63 bytes/
        case "unsigned": return /is not signed, but --key was given/
        case "missing-file": return /which the zip does not hold/
        case "unsafe-name": return /unsafe name/
        case "damaged": return /damaged or truncated/
        case "init-packet-invalid": return /init packet .* is invalid/
        default: return nil
        }
    }

    @Test func samplesArePresent() {
        #expect(Self.rows.count >= 14)
    }

    @Test(arguments: rows)
    func verdictMatchesExpectedTSV(row: Row) throws {
        let run = try DFURun.run(row.arguments)
        if row.passes {
            #expect(run.exitCode == 0, "\(run.output)")
            #expect(run.stderr.isEmpty)
            #expect(run.stdoutLines.contains("format            Nordic DFU package"), "\(run.stdout)")
            #expect(run.stdoutLines.contains { $0.hasPrefix("  fw_version ") })
            #expect(run.stdoutLines.contains { $0.hasPrefix("  hash ") && $0.hasSuffix(" ok") })
            #expect(run.stdoutLines.last?.hasPrefix("OK: ") == true)
            if row.key != nil && row.flags.isEmpty {
                #expect(run.stdoutLines.last == "OK: package verified")
            } else {
                #expect(run.stdoutLines.last?.contains("signature not checked") == true)
            }
        } else {
            #expect(run.exitCode == 3, "\(run.output)")
            let problem = try #require(row.problem.flatMap(Self.wording))
            let reported = VerifySampleTests.reportedFailure(run)
            #expect(reported.contains(problem), "\(reported)")
        }
    }

    @Test func signedPackageShowsEveryFieldOfTheInitPacket() throws {
        let run = try DFURun.run(["verify", "firmware-samples/nordic/app-signed-3.zip",
                                  "--key", "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem"])
        #expect(run.exitCode == 0)
        for line in ["image             1 of 1: application", "  type            APPLICATION", "  fw_version      3",
                     "  hw_version      52", "  sd_req          0x0101", "  firmware        blinky.bin, 49152 bytes",
                     "  init packet     blinky.dat, 141 bytes", "  app_size        49152 bytes",
                     "  signature type  ECDSA P-256", "  signature       ok", "OK: package verified"] {
            #expect(run.stdoutLines.contains(line), "no '\(line)' in:\n\(run.stdout)")
        }
    }

    @Test func withoutKeyTheVerdictSaysTheSignatureWasNotChecked() throws {
        let signed = try DFURun.run(["verify", "firmware-samples/nordic/app-signed-3.zip"])
        #expect(signed.stdoutLines.last == "OK: structure, sizes and hashes verified; signature not checked (no key given)")
        let unsigned = try DFURun.run(["verify", "firmware-samples/nordic/app-unsigned-3.zip"])
        #expect(unsigned.stdoutLines.last == "OK: structure, sizes and hashes verified; signature not checked (the package is not signed; no key given)")
        #expect(unsigned.stdoutLines.contains("  signature type  none (not signed)"))
    }

    @Test func jsonGivesOneObjectWithAnEntryPerImage() throws {
        let run = try DFURun.run(["verify", "firmware-samples/nordic/app-signed-3.zip", "--json",
                                  "--key", "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.c"])
        #expect(run.exitCode == 0)
        #expect(run.stdoutLines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "Nordic DFU package")
        #expect(object["ok"] as? Bool == true && object["exit_code"] as? Int == 0)
        let images = try #require(object["images"] as? [[String: Any]])
        #expect(images.count == 1)
        #expect(images.first?["part"] as? String == "application")
        #expect(images.first?["fw_version"] as? Int == 3)
        #expect(images.first?["sd_req"] as? [Int] == [0x0101])
        #expect(images.first?["signature"] as? String == "passed")
        #expect(images.first?["sha256"] as? String == images.first?["init_packet_sha256"] as? String)
    }

    @Test func jsonOfAPackageThatCannotBeReadCarriesTheError() throws {
        let run = try DFURun.run(["verify", "--json", "firmware-samples/nordic/broken/truncated.zip"])
        #expect(run.exitCode == 3)
        #expect(run.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false && object["exit_code"] as? Int == 3)
        #expect((object["error"] as? String)?.contains("damaged or truncated") == true)
        #expect(object["images"] == nil)
    }

    /// A package is told by its content: renamed to .bin it is still a package, and an MCUboot image
    /// named .zip is still an image.
    @Test func packageIsToldByContentNotByName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-verify-pkg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let renamedPackage = directory.appendingPathComponent("firmware.bin")
        try FileManager.default.copyItem(at: SampleTable.directory.appendingPathComponent("nordic/app-signed-3.zip"), to: renamedPackage)
        let renamedImage = directory.appendingPathComponent("image.zip")
        try FileManager.default.copyItem(at: SampleTable.directory.appendingPathComponent("images/blinky-ecdsa-p256-1.1.0.signed.bin"),
                                         to: renamedImage)
        let package = try DFURun.run(["verify", renamedPackage.path])
        #expect(package.exitCode == 0)
        #expect(package.stdoutLines.contains("format            Nordic DFU package"))
        let image = try DFURun.run(["verify", renamedImage.path])
        #expect(image.exitCode == 0)
        #expect(image.stdoutLines.contains { $0.hasPrefix("format ") && $0.hasSuffix(" MCUboot") })
    }

    @Test func keyOfAnotherTypeIsRefusedNamingIt() throws {
        let run = try DFURun.run(["verify", "firmware-samples/nordic/app-signed-3.zip",
                                  "--key", "firmware-samples/keys/TEST-ONLY-ed25519.pub.pem"])
        #expect(run.exitCode == 3)
        #expect(run.stderr.contains("it is an Ed25519 key, and Nordic DFU packages are signed with ECDSA P-256"))
    }

    @Test func verboseNeverShowsKeyMaterial() throws {
        let run = try DFURun.run(["verify", "-v", "firmware-samples/nordic/app-signed-3.zip",
                                  "--key", "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.c"])
        #expect(run.exitCode == 0)
        #expect(run.stderr.contains("dfu: the file is a zip archive: reading it as a Nordic DFU package"))
        let code = try String(contentsOf: SampleTable.directory.appendingPathComponent("nordic/keys/TEST-ONLY-nordic-p256.pub.c"),
                              encoding: .utf8)
        let firstBytes = try #require(code.split(separator: "\n").first { $0.contains("0x") })
        #expect(!run.output.contains(firstBytes.trimmingCharacters(in: .whitespaces).prefix(30)))
    }
}
