import DFUCore
import ExitCodes

/// How an update ended: the version now on the device, or the error that stopped it.
typealias UpdateResult = Result<ImageVersion, DFUError>

/// Shows one update as it happens. A command feeds every `UpdateEvent` the engine sends, in order,
/// then the result once; `TerminalRenderer` writes it for people, `NDJSONRenderer` for scripts.
///
/// Renderers read no clock and query no terminal: `now` comes with each call (a monotonic instant,
/// only compared with earlier ones) and TTY-ness with the configuration, so tests replay a scripted
/// run with made-up times and check every line.
protocol EventRenderer {
    mutating func render(_ event: UpdateEvent, at now: ContinuousClock.Instant)

    /// Shows the result (an error included) and returns the exit status for it. The run is then
    /// fully reported: the command returns this status and does not throw the error again, or
    /// the CLI would print it twice.
    mutating func finish(_ result: UpdateResult, at now: ContinuousClock.Instant) -> ExitStatus

    /// Time passed without an event (a `Ticker`, on a terminal): redraw what counts it, if anything.
    mutating func tick(at now: ContinuousClock.Instant)
}

extension EventRenderer {
    mutating func tick(at now: ContinuousClock.Instant) {}
}

extension UpdateResult {
    /// The documented exit code for this result (0, or the error's own).
    var exitStatus: ExitStatus {
        switch self {
        case .success: return .success
        case .failure(let error): return error.exitStatus
        }
    }
}
