import DFUCore
import Synchronization

/// `dfu reset --wait` while it waits: on a terminal the reboot is counted in place
/// (`rebooting… 3 s`, as `dfu flash` counts its reboot), elsewhere one `rebooting` line; with
/// `--json` nothing (the result says how long it took). Fed the operation's events from its task
/// and ticks from a `Ticker`, hence the lock.
final class ResetView: Sendable {
    private struct State: Sendable {
        var counter = RebootCounter()
        var onScreen: String?
        var rebootingAt: ContinuousClock.Instant?
        var backAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let ticker = Mutex<Ticker?>(nil)
    private let console: Console
    private let isTerminal: Bool
    private let quiet: Bool

    /// `quiet`: `--json`, or no wait to show.
    init(console: Console, quiet: Bool, isTerminal: Bool = Console.isTerminal(.standardOutput)) {
        self.console = console
        self.quiet = quiet
        self.isTerminal = isTerminal
    }

    func observe(_ event: UpdateEvent, at now: ContinuousClock.Instant = .now) {
        switch event {
        case .rebooting:
            state.withLock { $0.rebootingAt = now }
            guard !quiet else { return }
            guard isTerminal else {
                console.out("rebooting")
                return
            }
            state.withLock { state in draw(state.counter.start(at: now), &state) }
            let started = Ticker { [weak self] now in self?.tick(at: now) }
            ticker.withLock { $0 = started }
        case .reconnected:
            state.withLock { $0.backAt = now }
            end()
        default:
            break
        }
    }

    func tick(at now: ContinuousClock.Instant) {
        state.withLock { state in
            guard state.onScreen != nil, let text = state.counter.redraw(at: now) else { return }
            draw(text, &state)
        }
    }

    /// Stops counting (the last count stays on its line) and returns how long the device took to
    /// come back, from the reset to its first answer; nil when it did not.
    @discardableResult
    func end() -> Duration? {
        ticker.withLock { $0?.stop() }
        return state.withLock { state in
            state.counter.stop()
            if state.onScreen != nil {
                console.emit("\n", to: .standardOutput)
                state.onScreen = nil
            }
            guard let rebootingAt = state.rebootingAt, let backAt = state.backAt else { return nil }
            return backAt - rebootingAt
        }
    }

    private func draw(_ text: String, _ state: inout State) {
        let padding = max(0, (state.onScreen?.count ?? 0) - text.count)
        console.emit("\r" + text + String(repeating: " ", count: padding), to: .standardOutput)
        state.onScreen = text
    }
}
