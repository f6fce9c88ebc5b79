import Foundation

/// One row of `firmware-samples/expected.tsv` (what `imgtool verify` 2.5.0 says) or of
/// `imgtool-divergent.tsv` (where dfu follows MCUboot instead): a file, an optional key, the verdict.
struct SampleCase: Sendable, CustomStringConvertible {
    /// Relative to `firmware-samples/`.
    var file: String
    var key: String?
    /// imgtool's word: OK, INVALID_HASH, INVALID_SIGNATURE, INVALID_MAGIC, INVALID_TLV_INFO_MAGIC,
    /// ERROR (imgtool crashed on a malformed file).
    var imgtoolResult: String
    /// `1.1.0+0`, when imgtool accepted the image.
    var version: String?
    var sha256: String?
    /// For divergent rows: MCUboot's verdict, which dfu follows (OK or REJECT).
    var mcubootVerdict: String?

    var description: String { file + (key.map { " --key \($0)" } ?? "") }

    /// What a user types: paths relative to the repository root, where the tests run dfu.
    var arguments: [String] {
        ["verify", "firmware-samples/\(file)"] + (key.map { ["--key", "firmware-samples/\($0)"] } ?? [])
    }

    /// dfu accepts it: imgtool said OK (expected.tsv), or MCUboot would boot it (divergent rows).
    var shouldPass: Bool { (mcubootVerdict ?? imgtoolResult) == "OK" }
}

enum SampleTable {
    static let directory = DFUBinary.repositoryRoot.appendingPathComponent("firmware-samples")

    /// Every row of `expected.tsv` (empty if the file is missing; `samplesArePresent` fails then).
    static let expected: [SampleCase] = rows("expected.tsv").map { columns in
        SampleCase(file: columns[0], key: value(columns[1]), imgtoolResult: columns[2],
                   version: value(columns[3]), sha256: value(columns[4]), mcubootVerdict: nil)
    }

    /// Every row of `imgtool-divergent.tsv`: file, key, imgtool's verdict, MCUboot's, note.
    static let divergent: [SampleCase] = rows("imgtool-divergent.tsv").map { columns in
        SampleCase(file: columns[0], key: value(columns[1]), imgtoolResult: columns[2],
                   version: nil, sha256: nil, mcubootVerdict: columns[3])
    }

    static var good: [SampleCase] { expected.filter(\.shouldPass) }
    static var bad: [SampleCase] { expected.filter { !$0.shouldPass } }

    /// Tab-separated, no header, at least five columns; `-` means none.
    private static func rows(_ name: String) -> [[String]] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count >= 5 }
    }

    private static func value(_ column: String) -> String? { column == "-" ? nil : column }
}
