import Testing
import DFUCore

/// dfu's verdict must match `imgtool verify` (2.5.0) on every row of `firmware-samples/expected.tsv`, and
/// MCUboot's on the rows of `imgtool-divergent.tsv` where imgtool accepts what the bootloader refuses.
@Suite("Agreement with imgtool")
struct ImgtoolAgreementTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let file: String
        let key: String?
        let expected: String
        let version: String?
        let sha256: String?
        var testDescription: String { "\(file) key=\(key ?? "-") → \(expected)" }
    }

    static let expectedRows: [Row] = (try? Samples.table("expected.tsv"))?.compactMap { fields in
        guard fields.count == 5 else { return nil }
        return Row(file: fields[0], key: fields[1] == "-" ? nil : fields[1], expected: fields[2],
                   version: fields[3] == "-" ? nil : fields[3], sha256: fields[4] == "-" ? nil : fields[4])
    } ?? []

    static let divergentRows: [Row] = (try? Samples.table("imgtool-divergent.tsv"))?.compactMap { fields in
        guard fields.count >= 4 else { return nil }
        return Row(file: fields[0], key: fields[1] == "-" ? nil : fields[1], expected: fields[3],
                   version: nil, sha256: nil)
    } ?? []

    @Test func sampleTablesArePresent() {
        #expect(Self.expectedRows.count >= 30, "firmware-samples/expected.tsv is missing or short")
        #expect(Self.divergentRows.count >= 4, "firmware-samples/imgtool-divergent.tsv is missing or short")
    }

    @Test(arguments: expectedRows)
    func verdictMatchesImgtool(row: Row) throws {
        let bytes = try Samples.bytes(row.file)
        let key = try row.key.map { try PublicKey.load(path: Samples.url($0).path) }
        let outcome = Result { () throws(ImageError) in try ImageVerifier.verify(bytes: bytes, key: key) }
        #expect(Self.imgtoolVerdict(outcome) == row.expected)
        if row.expected == "OK", case .success(let report) = outcome {
            #expect(report.version.description == row.version)
            #expect(report.sha256.hex == row.sha256)
        }
    }

    @Test(arguments: divergentRows)
    func verdictMatchesMCUbootWhereImgtoolIsLenient(row: Row) throws {
        let bytes = try Samples.bytes(row.file)
        let key = try row.key.map { try PublicKey.load(path: Samples.url($0).path) }
        let outcome = Result { () throws(ImageError) in try ImageVerifier.verify(bytes: bytes, key: key) }
        let accepted = (try? outcome.get())?.passed ?? false
        #expect(accepted == (row.expected == "OK"))
    }

    /// The `imgtool verify` result dfu's outcome corresponds to. imgtool crashes ("ERROR") on files whose
    /// sizes lie; dfu throws a structural `ImageError` for those.
    static func imgtoolVerdict(_ outcome: Result<VerificationReport, ImageError>) -> String {
        switch outcome {
        case .failure(.badMagic), .failure(.unsupportedImage):
            return "INVALID_MAGIC"
        case .failure(.badTLVInfoMagic):
            return "INVALID_TLV_INFO_MAGIC"
        case .failure(.missingHash):
            return "INVALID_SIGNATURE"   // what imgtool says when its TLV walk finds no hash to compare
        case .failure:
            return "ERROR"
        case .success(let report):
            if report.hash.failed { return "INVALID_HASH" }
            if report.signature.failed { return "INVALID_SIGNATURE" }
            if report.keyHash.failed { return "KEY_MISMATCH" }
            return report.passed ? "OK" : "ERROR"
        }
    }
}
