import Foundation
import DFUCore

/// The committed samples in `firmware-samples/` (made by its `generate.sh` with imgtool 2.5.0). Tests read
/// them from the repository, located from this file's path, so they never depend on a temp directory.
enum Samples {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // DFUCoreTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .appendingPathComponent("firmware-samples")

    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }

    static func key(_ name: String) throws -> PublicKey {
        try PublicKey.load(path: url("keys/TEST-ONLY-\(name).pub.pem").path)
    }

    static func image(_ name: String) throws -> [UInt8] { try bytes("images/\(name)") }
    static func broken(_ name: String) throws -> [UInt8] { try bytes("broken/\(name)") }

    /// Rows of a TSV file: tab-separated, no header, `-` meaning none.
    static func table(_ relativePath: String) throws -> [[String]] {
        try String(contentsOf: url(relativePath), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}

/// Hex helpers for comparing digests with the TSV files.
extension Array where Element == UInt8 {
    var hex: String { map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}
