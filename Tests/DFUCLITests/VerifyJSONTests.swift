import Foundation
import Testing

/// `dfu verify --json`: exactly one JSON object on one line of stdout, with the documented fields,
/// whatever happened.
@Suite struct VerifyJSONTests {
    static let imageFields = ["format", "version", "header_size", "body_size", "file_size", "flags", "sha256",
                              "signature_algorithm", "hash", "signature", "key_hash"]

    @Test(arguments: SampleTable.good)
    func goodImageGivesOneLineWithEveryField(sample: SampleCase) throws {
        let run = try DFURun.run(sample.arguments + ["--json"])
        #expect(run.exitCode == 0)
        #expect(run.stderr.isEmpty)
        let object = try Self.singleObject(run)
        #expect(object["event"] as? String == "result")
        #expect(object["command"] as? String == "verify")
        #expect(object["file"] as? String == "firmware-samples/\(sample.file)")
        #expect(object["ok"] as? Bool == true)
        #expect(object["exit_code"] as? Int == 0)
        #expect(object["error"] is NSNull)
        for field in Self.imageFields { #expect(object[field] != nil, "missing \(field)") }
        #expect(object["format"] as? String == "MCUboot")
        #expect(object["version"] as? String == sample.version)
        #expect(object["sha256"] as? String == sample.sha256)
        #expect(object["header_size"] as? Int == 512)
        #expect((object["body_size"] as? Int ?? 0) > 0)
        #expect((object["file_size"] as? Int ?? 0) > (object["body_size"] as? Int ?? 0))
        // Compressed samples carry IMAGE_F_COMPRESSED_LZMA2 (0x400), and 0x800 with the ARM Thumb filter;
        // the RAM-load sample IMAGE_F_RAM_LOAD (0x20).
        let compressed = sample.file.contains("lzma2")
        let ramLoad = sample.file.contains("ramload") ? 0x20 : 0
        #expect(object["flags"] as? Int == (sample.file.contains("armthumb") ? 0xC00 : compressed ? 0x400 : 0) | ramLoad)
        let compression = object["compression"] as? [String: Any]
        #expect((compression != nil) == compressed)
        if let compression {
            #expect(compression["method"] as? String == (sample.file.contains("armthumb") ? "LZMA2 with ARM Thumb filter" : "LZMA2"))
            #expect(compression["decompressed_size"] as? Int == 49152)
            #expect((compression["decompressed_sha256"] as? String)?.count == 64)
            #expect(compression["decompressed_sha256"] as? String != sample.sha256)
            #expect(compression["decompressed_hash"] as? String == "passed")
            #expect(compression["decompressed_signature"] as? String == (sample.key == nil ? "not-checked" : "passed"))
        }
        #expect(object["hash"] as? String == "passed")
        // An image signed without a key carries no signature: "not-signed", not "not checked".
        let unsigned = sample.file.contains("unsigned")
        #expect(object["signature"] as? String == (sample.key != nil ? "passed" : unsigned ? "not-signed" : "not-checked"))
        #expect(["passed", "not-checked"].contains(object["key_hash"] as? String ?? ""))
    }

    @Test func failedCheckKeepsImageFieldsAndNamesTheFailure() throws {
        let run = try DFURun.run(["verify", "firmware-samples/broken/tampered-body.bin",
                                  "--key", "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem", "--json"])
        #expect(run.exitCode == 3)
        let object = try Self.singleObject(run)
        #expect(object["ok"] as? Bool == false)
        #expect(object["exit_code"] as? Int == 3)
        #expect(object["hash"] as? String == "failed")
        #expect(object["version"] as? String == "1.1.0+0")
        #expect((object["error"] as? String)?.contains("hash mismatch") == true)
    }

    @Test func wrongKeyFailsTheSignature() throws {
        let run = try DFURun.run(["verify", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin",
                                  "--key", "firmware-samples/keys/TEST-ONLY-other-ecdsa-p256.pub.pem", "--json"])
        #expect(run.exitCode == 3)
        let object = try Self.singleObject(run)
        #expect(object["hash"] as? String == "passed")
        #expect(object["signature"] as? String == "failed")
        #expect(object["ok"] as? Bool == false)
    }

    @Test func structuralFailureOmitsImageFields() throws {
        let run = try DFURun.run(["verify", "--json", "firmware-samples/broken/bad-magic.bin"])
        #expect(run.exitCode == 3)
        #expect(run.stderr.isEmpty)
        let object = try Self.singleObject(run)
        #expect(object["ok"] as? Bool == false)
        #expect(object["exit_code"] as? Int == 3)
        #expect((object["error"] as? String)?.contains("bad header magic") == true)
        for field in Self.imageFields { #expect(object[field] == nil, "unexpected \(field)") }
    }

    /// Paths are user data: quotes, backslashes, control characters and non-ASCII must come back intact.
    @Test(arguments: ["quote\"and\\backslash.bin", "tab\tnew\nline\u{1}.bin", "ünïcødé-ファイル-\u{2028}.bin"])
    func fileNameIsEscapedIntoValidJSON(name: String) throws {
        let path = "firmware-samples/no-such-dir/\(name)"
        let run = try DFURun.run(["verify", path, "--json"])
        #expect(run.exitCode == 3)
        let object = try Self.singleObject(run)
        #expect(object["file"] as? String == path)
        #expect((object["error"] as? String)?.hasPrefix("cannot read") == true)
    }

    /// Parses stdout as exactly one line holding one JSON object.
    static func singleObject(_ run: DFURun) throws -> [String: Any] {
        #expect(run.stdout.hasSuffix("\n"))
        let lines = run.stdoutLines
        try #require(lines.count == 1, "expected one line on stdout, got \(lines.count): \(run.stdout)")
        let parsed = try JSONSerialization.jsonObject(with: Data(lines[0].utf8))
        return try #require(parsed as? [String: Any], "not a JSON object: \(lines[0])")
    }
}
