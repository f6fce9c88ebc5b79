import Transport

/// What a terminal shows while a device reboots: `rebooting… 3 s`, the whole seconds since the
/// reset went out, redrawn in place as they pass (MCUboot may swap for tens of seconds, and a
/// line that does not move looks hung). Reads no clock: the caller passes `now`.
struct RebootCounter: Sendable {
    private var since: ContinuousClock.Instant?
    /// The seconds last drawn.
    private var shown: Int?

    /// Whether a reboot is being counted.
    var isCounting: Bool { since != nil }

    /// The reset went out at `now`: the first text to draw.
    mutating func start(at now: ContinuousClock.Instant) -> String {
        since = now
        shown = 0
        return Self.text(seconds: 0)
    }

    /// The text to draw again when the whole seconds changed since the last draw; nil otherwise.
    mutating func redraw(at now: ContinuousClock.Instant) -> String? {
        guard let since else { return nil }
        let seconds = Int((now - since).seconds)
        guard seconds != shown else { return nil }
        shown = seconds
        return Self.text(seconds: seconds)
    }

    /// The reboot ended (the device is back, or the run ended): counting stops.
    mutating func stop() {
        since = nil
        shown = nil
    }

    static func text(seconds: Int) -> String { "rebooting… \(seconds) s" }
}
