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
        ColumnTable.render(rows.map { [$0.label, $0.value] })
    }
}
