import Foundation
import Testing

/// docs/bad-input.md stays true to the tests: every row of its table names at least one test as
/// `File.swift: function`, and every function it names (also the bare `function` after a file in
/// the same cell) is a test in that file of Tests/DFUCLITests.
@Suite struct BadInputTableTests {
    static let document = DFUBinary.repositoryRoot.appendingPathComponent("docs/bad-input.md")
    static let tests = DFUBinary.repositoryRoot.appendingPathComponent("Tests/DFUCLITests")

    @Test func everyRowNamesTestsThatExist() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| case ") }
        #expect(rows.count >= 22, "the issue's cases, one row or more each")
        for row in rows {
            let cell = try #require(row.split(separator: "|").last.map(String.init))
            var file: String?
            var named = 0
            for span in cell.components(separatedBy: "`").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
                let parts = span.components(separatedBy: ".swift: ")
                if parts.count == 2 {
                    file = parts[0] + ".swift"
                    try Self.expectTest(parts[1], in: parts[0] + ".swift", row: row)
                    named += 1
                } else if let file, span.range(of: "^[a-z]+[A-Z][A-Za-z0-9]*$", options: .regularExpression) != nil {
                    try Self.expectTest(span, in: file, row: row)
                }
            }
            #expect(named > 0, "no test named in: \(row)")
        }
    }

    static func expectTest(_ function: String, in file: String, row: Substring) throws {
        let source = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
        let found = source.contains("func \(function)(")
        #expect(found, "\(file) has no test \(function) (row: \(row.prefix(60))…)")
    }
}
