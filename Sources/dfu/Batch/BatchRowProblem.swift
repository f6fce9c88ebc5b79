/// Why a plan row cannot run, said in the plan's terms: its line, the column at fault, and what is
/// wrong with the cell (never a passkey's digits).
///
///     line 3, column min_battery: 'abc' is not a percentage from 0 to 100
struct BatchRowProblem: Error, Sendable, Equatable, CustomStringConvertible {
    var line: Int
    var column: String
    var reason: String

    var description: String { "line \(line), column \(column): \(reason)" }
}
