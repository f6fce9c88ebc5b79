import Foundation
import Testing
@testable import DFUCore
import NordicTestSupport

@Suite("Nordic package verifier")
struct NordicPackageVerifierTests {
    @Test func samplesArePresent() {
        #expect(NordicSamples.rows.count >= 14, "firmware-samples/nordic-expected.tsv lists too few rows")
        #expect(NordicSamples.rows.contains { !$0.passes } && NordicSamples.rows.contains(where: \.passes))
    }

    /// The library's verdict on every row of nordic-expected.tsv, and the error it names.
    @Test(arguments: NordicSamples.rows)
    func verdictOnEverySampleMatchesExpectedTSV(row: NordicSamples.Row) throws {
        let outcome: Result<NordicVerificationReport, NordicPackageError>
        do {
            let key = try row.key.map { try PublicKey.load(path: Samples.url($0).path) }
            let package = try NordicPackage(zipBytes: Samples.bytes(row.file))
            outcome = .success(try NordicPackageVerifier.verify(package, key: key, allowUnsigned: row.allowUnsigned))
        } catch let error as NordicPackageError {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let report):
            #expect(report.passed == row.passes, "\(report.firstFailure.map(\.description) ?? "passed")")
            if let problem = row.problem, let failure = report.firstFailure {
                #expect(Self.problem(failure) == problem, "\(failure)")
            }
        case .failure(let error):
            #expect(!row.passes, "\(error)")
            #expect(Self.problem(error) == row.problem, "\(error)")
        }
    }

    /// nordic-expected.tsv's word for each refusal.
    static func problem(_ error: NordicPackageError) -> String {
        switch error {
        case .hashMismatch: return "hash-mismatch"
        case .signatureInvalid: return "signature-invalid"
        case .signatureMalformed: return "signature-malformed"
        case .unsigned: return "unsigned"
        case .missingFile: return "missing-file"
        case .initPacketInvalid: return "init-packet-invalid"
        case .archive(.unsafeEntryName): return "unsafe-name"
        case .archive(.damaged), .archive(.notAZip): return "damaged"
        default: return "other: \(error)"
        }
    }

    @Test func signedPackageReportsWhatTheInitPacketSays() throws {
        let package = try NordicSamples.package("nordic/app-signed-3.zip")
        let report = try NordicPackageVerifier.verify(package, key: NordicSamples.key(), allowUnsigned: false)
        let image = try #require(report.images.first)
        #expect(report.images.count == 1 && report.passed)
        #expect(image.kind == .application && image.firmwareType == .application)
        #expect(image.fwVersion == 3 && image.hwVersion == 52 && image.sdReq == [0x0101])
        #expect(image.binSize == 49152 && image.appSize == 49152 && image.datSize == 141)
        #expect(image.sha256 == (try SHA256.hash(package.images[0].firmware)))
        #expect(image.initPacketSHA256 == image.sha256)
        #expect(image.signatureType == "ECDSA P-256")
        #expect(image.hash == .passed && image.size == .passed && image.signature == .passed)
    }

    @Test func withoutAKeyNoSignatureIsCheckedSignedOrNot() throws {
        for file in ["nordic/app-signed-3.zip", "nordic/app-unsigned-3.zip"] {
            let report = try NordicPackageVerifier.verify(NordicSamples.package(file), key: nil, allowUnsigned: false)
            #expect(report.passed)
            guard case .notChecked = report.images.first?.signature else { Issue.record("\(file): signature was checked"); continue }
        }
    }

    @Test func refusesKeyThatIsNotP256() throws {
        let ed25519 = try Samples.key("ed25519")
        #expect(throws: NordicPackageError.keyNotP256(path: "k.pem", algorithm: "Ed25519")) {
            try NordicPackageVerifier.verify(NordicSamples.package("nordic/app-signed-3.zip"), key: ed25519,
                                             keySource: "k.pem", allowUnsigned: false)
        }
    }

    /// The size field is held to the .bin: a package whose .bin was swapped for one of another length.
    @Test func sizeFieldMustMatchTheBin() throws {
        let archive = try ZipArchive(bytes: Samples.bytes("nordic/app-signed-3.zip"))
        let entries = archive.entries.map { entry in
            TestZip.Entry(entry.name, entry.name == "blinky.bin" ? entry.bytes + [0xFF, 0xFF, 0xFF, 0xFF] : entry.bytes)
        }
        let package = try NordicPackage(zipBytes: TestZip(entries).bytes)
        let report = try NordicPackageVerifier.verify(package, key: nil, allowUnsigned: false)
        guard case .failed(.sizeMismatch(.application, let reason)) = report.images.first?.size else {
            Issue.record("size check: \(String(describing: report.images.first?.size))")
            return
        }
        #expect(reason == "the init packet's app_size is 49152 but blinky.bin is 49156 bytes")
        #expect(!report.passed)
    }

    @Test func bootloaderPackageChecksBlSize() throws {
        let report = try NordicPackageVerifier.verify(NordicSamples.package("nordic/bootloader-signed-2.zip"),
                                                      key: NordicSamples.key(), allowUnsigned: false)
        #expect(report.passed)
        #expect(report.images.map(\.kind) == [.bootloader])
        #expect(report.images.first?.bootloaderSize == 24576 && report.images.first?.fwVersion == 2)
    }

    @Test func errorsSayWhatToDo() {
        let errors: [NordicPackageError] = [
            .unsigned(part: .application), .signatureInvalid(part: .application), .manifestMissing,
            .archive(.unsafeEntryName(name: "../x", reason: "it has a '..' component")),
            .hashMismatch(part: .application, expected: [], computed: []),
        ]
        for error in errors {
            #expect(error.description.contains(/(make it again|nrfutil|do not flash|Rebuild|--allow-unsigned)/), "\(error)")
        }
    }
}

@Suite("Nordic public key formats")
struct NordicKeyFormatTests {
    /// nrfutil's PEM (76-character lines) and its C array name the same key.
    @Test func pemAndNrfutilCodeArrayGiveTheSameKey() throws {
        let pem = try NordicSamples.key("pub.pem")
        let code = try NordicSamples.key("pub.c")
        #expect(pem.algorithm == .ecdsaP256)
        #expect(code == pem)
        let other = try NordicSamples.key("pub.c", name: "TEST-ONLY-nordic-other-p256")
        #expect(other != pem)
    }

    @Test(arguments: [64, 76, 20])
    func pemOfAnyLineWidthLoads(width: Int) throws {
        let text = try String(contentsOf: Samples.url("nordic/keys/TEST-ONLY-nordic-p256.pub.pem"), encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        var lines = ["-----BEGIN PUBLIC KEY-----"]
        var rest = Substring(body)
        while !rest.isEmpty { lines.append(String(rest.prefix(width))); rest = rest.dropFirst(width) }
        lines.append("-----END PUBLIC KEY-----")
        let key = try PublicKey(pem: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(key == (try NordicSamples.key()))
    }

    @Test func codeArrayWithWrongByteCountOrNotOnTheCurveIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-nordic-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let short = directory.appendingPathComponent("short.c")
        try "const uint8_t pk[64] = { 0x01, 0x02 };".write(to: short, atomically: true, encoding: .utf8)
        let offCurve = directory.appendingPathComponent("off.c")
        let ones = Array(repeating: "0x01", count: 64).joined(separator: ", ")
        try "const uint8_t pk[64] = { \(ones) };".write(to: offCurve, atomically: true, encoding: .utf8)
        #expect {
            try PublicKey.load(path: short.path)
        } throws: { error in
            (error as? ImageError)?.description.contains("it is a C array of 2 bytes, not the 64 bytes of a P-256 key") == true
        }
        #expect {
            try PublicKey.load(path: offCurve.path)
        } throws: { error in
            (error as? ImageError)?.description.contains("not a point on the P-256 curve") == true
        }
    }

    @Test func ecdsaDEREncodingOfRawRAndS() {
        // r with the top bit set gets a 0x00; s with leading zeros loses them.
        let r = [0x80] + [UInt8](repeating: 1, count: 31)
        let s = [0, 0] + [UInt8](repeating: 2, count: 30)
        let der = ECDSASignature.der(r: r, s: s)
        let head: [UInt8] = [0x30, 67, 0x02, 33]  // SEQUENCE of 2 + 33 and 2 + 30 bytes
        #expect(Array(der.prefix(4)) == head)
        #expect(der[4] == 0x00 && der[5] == 0x80)
        #expect(der[37] == 0x02 && der[38] == 30)
    }
}
