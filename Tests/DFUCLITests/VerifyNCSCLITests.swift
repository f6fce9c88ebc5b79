import Foundation
import NordicTestSupport
import Testing

/// `dfu verify` on the nRF Connect SDK zips in firmware-samples/ncs, held to firmware-samples/ncs-expected.tsv:
/// exit 0 or 3, one block of rows per image, the verdict naming the image at fault; and `dfu flash`
/// refusing such a zip as a usage error until flashing it lands.
@Suite struct VerifyNCSCLITests {
    struct Row: Sendable, CustomStringConvertible {
        var file: String
        var key: String?
        var passes: Bool
        var problem: String?
        var description: String { ([file] + (key.map { ["--key", $0] } ?? [])).joined(separator: " ") }
        var arguments: [String] {
            ["verify", "firmware-samples/\(file)"] + (key.map { ["--key", "firmware-samples/\($0)"] } ?? [])
        }
    }

    static let rows: [Row] = {
        let url = SampleTable.directory.appendingPathComponent("ncs-expected.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count >= 4 }
            .map { Row(file: $0[0], key: $0[1] == "-" ? nil : $0[1], passes: $0[2] == "OK", problem: $0[3] == "-" ? nil : $0[3]) }
    }()

    static let key = "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"

    /// The words a user sees for each problem word of the TSV.
    static func wording(_ problem: String) -> Regex<Substring>? {
        switch problem {
        case "hash-mismatch": return /ipc_radio.bin \(image 1\): image hash mismatch/
        case "signature-invalid": return /\(image \d\): .*signature/
        case "missing-file": return /the manifest names ipc_radio.bin, which the zip does not hold/
        case "unsafe-name": return /zip entry \.\.\/evil.bin has an unsafe name .* Rebuild the zip with the nRF Connect SDK/
        case "size-mismatch": return /the manifest says blinky.signed.bin is \d+ bytes, but the zip holds \d+/
        default: return nil
        }
    }

    @Test func samplesArePresent() {
        #expect(Self.rows.count >= 15)
    }

    @Test(arguments: rows)
    func verdictMatchesExpectedTSV(row: Row) throws {
        let run = try DFURun.run(row.arguments)
        if row.passes {
            #expect(run.exitCode == 0, "\(run.output)")
            #expect(run.stderr.isEmpty)
            #expect(run.stdoutLines.contains { $0.hasPrefix("format ") && $0.hasSuffix(" nRF Connect SDK zip") }, "\(run.stdout)")
            #expect(run.stdoutLines.filter { $0.hasPrefix("  hash ") }.allSatisfy { $0.hasSuffix(" ok") })
            if row.key != nil {
                #expect(run.stdoutLines.last?.hasSuffix("verified") == true && run.stdoutLines.last?.hasPrefix("OK: ") == true,
                        "\(run.stdout)")
            } else {
                #expect(run.stdoutLines.last?.hasSuffix("signatures not checked (no --key)") == true, "\(run.stdout)")
            }
        } else {
            #expect(run.exitCode == 3, "\(run.output)")
            let problem = try #require(row.problem.flatMap(Self.wording))
            let reported = VerifySampleTests.reportedFailure(run)
            #expect(reported.contains(problem), "\(reported)")
        }
    }

    @Test func twoImageZipShowsEachImageWithItsIndexCoreAndChecks() throws {
        let run = try DFURun.run(["verify", "firmware-samples/ncs/nrf5340-1.1.0.zip", "--key", Self.key])
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stdoutLines
        for line in ["format                 nRF Connect SDK zip", "name                   blinky",
                     "format-version         1", "built                  2024-12-02 00:00:00 UTC",
                     "zephyr revision        v3.7.99-ncs2", "nrf revision           v2.9.0",
                     "image                  1 of 2: blinky.signed.bin", "  image index          0",
                     "  role                 application core", "  board                nrf5340dk/nrf5340/cpuapp (soc nrf5340)",
                     "  slot indexes         primary 1, secondary 2", "  load address         0x00010200",
                     "  manifest version     1.1.0+0 (version_MCUBOOT)", "  version              1.1.0+0",
                     "image                  2 of 2: ipc_radio.bin", "  image index          1",
                     "  role                 network core", "  load address         0x01008800",
                     "  manifest version     1.1.0+0 (version)",
                     "  signature algorithm  ECDSA P-256", "OK: 2 images verified"] {
            #expect(lines.contains(line), "no '\(line)' in:\n\(run.stdout)")
        }
        // The ECDSA signature's DER length (and so the file size) differs from one signing to the next.
        #expect(lines.contains { $0.wholeMatch(of: #/  size {17}334\d\d bytes \(header 512, body 32768\)/#) != nil })
        #expect(lines.filter { $0 == "  signature            ok" }.count == 2)
        #expect(lines.filter { $0 == "  key hash             ok" }.count == 2)
    }

    @Test func directXIPZipNamesTheSlotOfEachVariant() throws {
        let run = try DFURun.run(["verify", "firmware-samples/ncs/direct-xip-1.1.0.zip"])
        #expect(run.exitCode == 0)
        #expect(run.stdoutLines.contains("  role                 application, direct-XIP variant for the primary slot (slot 0)"))
        #expect(run.stdoutLines.contains("  role                 application, direct-XIP variant for the secondary slot (slot 1)"))
        #expect(run.stdoutLines.filter { $0 == "  image index          0" }.count == 2)
        #expect(run.stdoutLines.contains("  manifest version     1.1.0+0 (version_MCUBOOT+XIP)"))
    }

    @Test func legacyZipWithoutImageIndexSaysImageZero() throws {
        let run = try DFURun.run(["verify", "firmware-samples/ncs/legacy-app_update-1.0.0.zip", "--key", Self.key])
        #expect(run.exitCode == 0)
        #expect(run.stdoutLines.contains("  image index          0 (not in the manifest)"))
        #expect(run.stdoutLines.contains("format-version         0"))
        #expect(run.stdoutLines.last == "OK: 1 image verified")
    }

    @Test func aTamperedSecondImageFailsTheWholeZipAfterListingBoth() throws {
        let run = try DFURun.run(["verify", "firmware-samples/ncs/broken/tampered-net-core.zip", "--key", Self.key])
        #expect(run.exitCode == 3)
        #expect(run.stdoutLines.filter { $0.hasPrefix("  hash ") } == ["  hash                 ok", "  hash                 FAILED"])
        #expect(run.stdoutLines.last?.hasPrefix("FAILED: ipc_radio.bin (image 1): image hash mismatch") == true)
    }

    @Test func jsonGivesOneObjectWithAnEntryPerImage() throws {
        let run = try DFURun.run(["verify", "firmware-samples/ncs/nrf5340-1.1.0.zip", "--json", "--key", Self.key])
        #expect(run.exitCode == 0)
        #expect(run.stdoutLines.count == 1 && run.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "nRF Connect SDK zip")
        #expect(object["ok"] as? Bool == true && object["exit_code"] as? Int == 0)
        #expect(object["format_version"] as? Int == 1 && object["time"] as? Int == 1_733_097_600)
        let images = try #require(object["images"] as? [[String: Any]])
        #expect(images.map { $0["file"] as? String } == ["blinky.signed.bin", "ipc_radio.bin"])
        #expect(images.map { $0["image_index"] as? Int } == [0, 1])
        #expect(images.map { $0["core"] as? String } == ["application core", "network core"])
        #expect(images.map { $0["load_address"] as? Int } == [0x10200, 0x0100_8800])
        #expect(images.allSatisfy { $0["signature"] as? String == "passed" && $0["hash"] as? String == "passed" })
        #expect(images.allSatisfy { ($0["sha256"] as? String)?.count == 64 })
        #expect(images.allSatisfy { $0["manifest_version"] as? String == "1.1.0+0" && $0["manifest_version_agrees"] as? Bool == true })
    }

    @Test func jsonOfAFailingZipMarksTheImageAndTheZip() throws {
        let run = try DFURun.run(["verify", "--json", "firmware-samples/ncs/broken/net-core-other-key.zip", "--key", Self.key])
        #expect(run.exitCode == 3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false && object["exit_code"] as? Int == 3)
        let images = try #require(object["images"] as? [[String: Any]])
        #expect(images.map { $0["signature"] as? String } == ["passed", "failed"])
        #expect(images[0]["error"] is NSNull)
        #expect((object["error"] as? String)?.hasPrefix("ipc_radio.bin (image 1): ") == true)
    }

    @Test func jsonOfAZipThatCannotBeReadCarriesTheError() throws {
        let run = try DFURun.run(["verify", "--json", "firmware-samples/ncs/broken/missing-file.zip"])
        #expect(run.exitCode == 3 && run.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((object["error"] as? String)?.contains("which the zip does not hold") == true)
        #expect(object["images"] == nil)
    }

    /// Renamed to .bin the zip is still an NCS zip: the manifest decides, not the name.
    @Test func ncsZipIsToldByItsManifestNotByName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-verify-ncs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let renamed = directory.appendingPathComponent("firmware.bin")
        try FileManager.default.copyItem(at: SampleTable.directory.appendingPathComponent("ncs/app-1.1.0.zip"), to: renamed)
        let run = try DFURun.run(["verify", renamed.path])
        #expect(run.exitCode == 0)
        #expect(run.stdoutLines.contains("format                 nRF Connect SDK zip"))
        let nordic = try DFURun.run(["verify", "firmware-samples/nordic/app-signed-3.zip"])
        #expect(nordic.stdoutLines.contains("format            Nordic DFU package"))
    }

    /// A manifest cut short is still reported as an NCS zip's, not as a broken nrfutil package.
    @Test func aDamagedNCSManifestIsReportedInNCSTerms() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-verify-ncs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("dfu_application.zip")
        try Data(TestZip(files: [("manifest.json", #"{"format-version": 1, "time": 1, "files": [{"file": "#)]).bytes).write(to: file)
        let run = try DFURun.run(["verify", file.path])
        #expect(run.exitCode == 3)
        #expect(run.stderr == "dfu: error: the zip's manifest.json is invalid: it is not valid JSON. Rebuild the zip with the nRF Connect SDK (west build).\n")
    }

    @Test func verboseSaysWhichImagesTheZipHolds() throws {
        let run = try DFURun.run(["verify", "-v", "firmware-samples/ncs/nrf5340-1.1.0.zip"])
        #expect(run.exitCode == 0)
        #expect(run.stderr.contains("dfu: the file is a zip archive with an nRF Connect SDK manifest: reading its images"))
        #expect(run.stderr.contains("dfu: zip holds blinky.signed.bin (image 0), ipc_radio.bin (image 1)"))
    }
}
