import Foundation

/// The text tables of the benchmark and the fault campaign.
public enum ColumnText {
    /// Pads every column to its widest cell: text columns on the left, numbers on the right; no
    /// trailing spaces.
    public static func align(_ rows: [[String]], leftAligned: Set<Int>) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0 ..< columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return leftAligned.contains(column) ? cell + pad : pad + cell
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// `value` with `digits` decimals.
    public static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
