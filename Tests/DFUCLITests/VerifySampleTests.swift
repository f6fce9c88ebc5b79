import Foundation
import Testing

/// `dfu verify` on every committed sample, held to what imgtool 2.5.0 says about it
/// (`firmware-samples/expected.tsv`) and, where imgtool accepts what MCUboot refuses, to MCUboot
/// (`imgtool-divergent.tsv`).
@Suite struct VerifySampleTests {
    @Test func samplesArePresent() {
        #expect(SampleTable.good.count >= 8, "firmware-samples/expected.tsv lists too few good samples")
        #expect(SampleTable.bad.count >= 8, "firmware-samples/expected.tsv lists too few bad samples")
        #expect(SampleTable.divergent.count >= 2)
    }

    @Test(arguments: SampleTable.good)
    func acceptsImageImgtoolAcceptsAndPrintsItsVersion(sample: SampleCase) throws {
        let run = try DFURun.run(sample.arguments)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.isEmpty)
        let version = try #require(sample.version)
        #expect(run.stdoutLines.contains { $0.wholeMatch(of: /version +(\S+)/)?.output.1 == Substring(version) },
                "no 'version \(version)' line in:\n\(run.stdout)")
        if let sha256 = sample.sha256 {
            #expect(run.stdoutLines.contains { $0.wholeMatch(of: /SHA-256 \(TLV\) +(\S+)/)?.output.1 == Substring(sha256) },
                    "no 'SHA-256 (TLV) \(sha256)' line in:\n\(run.stdout)")
        }
        if sample.key == nil, sample.file.contains("unsigned") {
            #expect(run.stdoutLines.contains { $0.wholeMatch(of: /signature +not signed/) != nil }, "\(run.stdout)")
            #expect(run.stdoutLines.last == "OK: structure and hash verified; not signed")
        } else if sample.key == nil {
            #expect(run.stdoutLines.contains { $0.hasPrefix("signature ") && $0.hasSuffix("not checked (no key given)") })
            #expect(run.stdoutLines.last == "OK: structure and hash verified; signature not checked (no --key)")
        } else {
            #expect(run.stdoutLines.contains { $0.hasPrefix("signature ") && $0.hasSuffix(" ok") })
            #expect(run.stdoutLines.last == "OK: image verified")
        }
    }

    @Test(arguments: SampleTable.bad)
    func refusesImageImgtoolRefusesNamingTheProblem(sample: SampleCase) throws {
        let run = try DFURun.run(sample.arguments)
        #expect(run.exitCode == 3, "\(run.output)")
        let problem = try #require(Self.problem(for: sample))
        let reported = Self.reportedFailure(run)
        #expect(reported.contains(problem), "expected '\(problem)' in: \(reported)")
    }

    @Test(arguments: SampleTable.divergent)
    func followsMCUbootWhereImgtoolDiffers(sample: SampleCase) throws {
        let run = try DFURun.run(sample.arguments)
        if sample.shouldPass {
            #expect(run.exitCode == 0, "\(run.output)")
        } else {
            #expect(run.exitCode == 3, "\(run.output)")
            let reported = Self.reportedFailure(run)
            #expect(reported.contains(Self.mcubootProblem(for: sample.file)), "\(reported)")
        }
    }

    /// What dfu must name for a divergent sample MCUboot refuses.
    static func mcubootProblem(for file: String) -> String {
        if file.contains("missing-hash") { return "no SHA256 TLV" }
        if file.contains("compressed-wrong-decomp-sha") { return "differs from DECOMP_SHA" }
        if file.contains("compressed-bad-stream") { return "does not decompress" }
        if file.contains("-enc-") { return "signature" } // another key than the signing one
        return "KEYHASH"
    }

    @Test func unreadableFileExitsThreeSayingCannotRead() throws {
        let run = try DFURun.run(["verify", "firmware-samples/images/no-such-image.bin"])
        #expect(run.exitCode == 3)
        #expect(run.stdout.isEmpty)
        // dfu's words, not the C library's ("No such file or directory").
        #expect(run.stderr == "dfu: error: cannot read firmware-samples/images/no-such-image.bin: no such file. Check the path and its permissions.\n")
    }

    @Test func directoryIsNotReadAsAnImage() throws {
        let run = try DFURun.run(["verify", "firmware-samples/images"])
        #expect(run.exitCode == 3)
        #expect(run.stderr.contains("cannot read firmware-samples/images: it is a directory"))
    }

    @Test func unusableKeyExitsThree() throws {
        let missing = try DFURun.run(["verify", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin",
                                      "--key", "firmware-samples/keys/no-such-key.pub.pem"])
        #expect(missing.exitCode == 3)
        #expect(missing.stderr.contains("cannot read key file firmware-samples/keys/no-such-key.pub.pem: no such file"))
        let notAKey = try DFURun.run(["verify", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin",
                                      "--key", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"])
        #expect(notAKey.exitCode == 3)
        #expect(notAKey.stderr.hasPrefix("dfu: error: cannot use key"))
    }

    /// A private key given by mistake is refused, and nothing of it is echoed back.
    @Test func privateKeyIsRefusedWithoutPrintingIt() throws {
        let keyPath = "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pem"
        let run = try DFURun.run(["verify", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin",
                                  "--key", keyPath, "--verbose"])
        #expect(run.exitCode == 3)
        let keyText = try String(contentsOf: SampleTable.directory.appendingPathComponent("keys/TEST-ONLY-ecdsa-p256.pem"),
                                 encoding: .utf8)
        let secretLines = keyText.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(!secretLines.isEmpty)
        for line in secretLines { #expect(!run.output.contains(line)) }
    }

    @Test func verboseLogsStepsOnStderrOnly() throws {
        let quiet = try DFURun.run(["verify", "firmware-samples/images/blinky-rsa2048-1.1.0.signed.bin",
                                    "--key", "firmware-samples/keys/TEST-ONLY-rsa2048.pub.pem"])
        let verbose = try DFURun.run(["verify", "-v", "firmware-samples/images/blinky-rsa2048-1.1.0.signed.bin",
                                      "--key", "firmware-samples/keys/TEST-ONLY-rsa2048.pub.pem"])
        #expect(verbose.exitCode == 0)
        #expect(verbose.stdout == quiet.stdout)
        #expect(verbose.stderr.contains("dfu: reading image firmware-samples/images/blinky-rsa2048-1.1.0.signed.bin"))
        #expect(verbose.stderr.contains("dfu: loading public key firmware-samples/keys/TEST-ONLY-rsa2048.pub.pem"))
        #expect(!verbose.stderr.contains("BEGIN PUBLIC KEY"))
    }

    /// The words that name the problem imgtool found (or crashed on) for this sample.
    static func problem(for sample: SampleCase) -> Regex<Substring>? {
        switch sample.imgtoolResult {
        case "INVALID_MAGIC": return /bad header magic/
        case "INVALID_TLV_INFO_MAGIC": return /TLV area .* has magic/
        case "INVALID_HASH": return /hash mismatch/
        case "INVALID_SIGNATURE": return /signature/
        case "ERROR": return /truncated|inconsistent/
        default: return nil
        }
    }

    /// Where a refusal is reported: `dfu: error: …` on stderr when the image could not be checked at
    /// all, else the `FAILED: …` verdict that ends the table on stdout.
    static func reportedFailure(_ run: DFURun) -> String {
        if let error = run.stderr.split(separator: "\n").first(where: { $0.hasPrefix("dfu: error: ") }) {
            return String(error)
        }
        return run.stdoutLines.last.flatMap { $0.hasPrefix("FAILED: ") ? $0 : nil } ?? "(nothing reported)\n\(run.output)"
    }
}
