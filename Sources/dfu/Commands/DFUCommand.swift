import ArgumentParsing
import DFUCore
import ExitCodes

/// One subcommand of `dfu`: a `ParsableCommand` (its declarations, help and `validate()`, from
/// `ArgumentParsing`) that `CLI` runs once its arguments have parsed and validated.
protocol DFUCommand: ParsableCommand {
    /// Does the work and prints its result. Returns the exit status for a result it has reported
    /// itself (a verification that failed is a result, not an error); throws for a failure that the
    /// caller should report as `dfu: error: …`.
    func run(_ console: Console) async throws(DFUError) -> ExitStatus
}
