/// Rows of cells in left-aligned columns two spaces apart, the first row a header:
///
///     DEVICE     STAGE     ATTEMPTS
///     …:1F:CA    transfer  2
enum ColumnTable {
    static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0 ..< columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let last = column == row.count - 1
                line += last ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return line
        }.joined(separator: "\n")
    }
}
