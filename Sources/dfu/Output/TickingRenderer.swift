import DFUCore
import ExitCodes
import Synchronization

/// A renderer fed from the run's events and, on a terminal, from a `Ticker` too, so what changes
/// with time alone (the reboot counter) moves while no event comes. The one lock keeps the two
/// callers' output whole.
final class TickingRenderer: Sendable {
    private let renderer: Mutex<any EventRenderer>
    private let ticker = Mutex<Ticker?>(nil)

    /// `ticks`: start the ticker (a terminal; plain lines and JSON need none).
    init(_ renderer: sending any EventRenderer, ticks: Bool) {
        self.renderer = Mutex(renderer)
        guard ticks else { return }
        let started = Ticker { [weak self] now in self?.renderer.withLock { $0.tick(at: now) } }
        ticker.withLock { $0 = started }
    }

    func render(_ event: UpdateEvent, at now: ContinuousClock.Instant) {
        renderer.withLock { $0.render(event, at: now) }
    }

    /// Stops the ticker and shows the result (`EventRenderer.finish`).
    func finish(_ result: UpdateResult, at now: ContinuousClock.Instant) -> ExitStatus {
        stop()
        return renderer.withLock { $0.finish(result, at: now) }
    }

    func stop() {
        ticker.withLock { $0?.stop() }
    }
}
