/// Label/value rows with the values in one column:
///
///     file          app.signed.bin
///     version       1.1.0+0
struct AlignedTable: Sendable {
    private var rows: [(label: String, value: String)] = []

    mutating func add(_ label: String, _ value: String) {
        rows.append((label, value))
    }

    var rendered: String {
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { row in
            row.label + String(repeating: " ", count: width - row.label.count + 2) + row.value
        }.joined(separator: "\n")
    }
}
