import Synchronization

/// The memory link's model time, so tests can run the BLE model faster than real time.
///
/// `timeScale` is real seconds per model second:
/// - `1`: real time. The benchmark uses this; measured kB/s are real.
/// - `0 < s < 1`: faster than real time (0.1 = ten times faster); timing stays proportional.
/// - `0`: unpaced. Model time moves only when something sleeps on the clock (airtime, latency, a
///   device's flash work), jumping to the sleeper's deadline, and a sleep only yields. Order and
///   back-pressure are kept; time-based faults fire at the first radio activity at or after their
///   time, because an idle link at scale 0 has no time passing.
///
/// The model sleeps only to the instants it computes (a slot's end, a connection event's anchor), never
/// a fixed delay. A class (not a struct) because copies must share the unpaced model time.
public final class LinkClock: Clock {
    public typealias Instant = LinkInstant

    public let timeScale: Double
    private let origin: ContinuousClock.Instant
    /// Model time at scale 0; unused otherwise.
    private let unpacedNow: Mutex<Duration>

    /// Nil when `timeScale` is negative, infinite or NaN.
    public init?(timeScale: Double) {
        guard timeScale.isFinite, timeScale >= 0 else { return nil }
        self.timeScale = timeScale
        origin = .now
        unpacedNow = Mutex(.zero)
    }

    private init(validScale: Double) {
        timeScale = validScale
        origin = .now
        unpacedNow = Mutex(.zero)
    }

    /// Model time equals real time.
    public static func realTime() -> LinkClock { LinkClock(validScale: 1) }

    /// As fast as possible: see the type's notes on scale 0.
    public static func unpaced() -> LinkClock { LinkClock(validScale: 0) }

    public var now: LinkInstant {
        if timeScale == 0 { return LinkInstant(sinceOrigin: unpacedNow.withLock { $0 }) }
        return LinkInstant(sinceOrigin: (ContinuousClock.now - origin) / timeScale)
    }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: LinkInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        if timeScale == 0 {
            unpacedNow.withLock { $0 = max($0, deadline.sinceOrigin) }
            await Task.yield()
            try Task.checkCancellation()
            return
        }
        let realDeadline = origin + deadline.sinceOrigin * timeScale
        // A deadline already past returns at once: a radio that woke late catches up on its schedule.
        guard realDeadline > .now else { return }
        try await Task.sleep(until: realDeadline, tolerance: tolerance.map { $0 * timeScale }, clock: .continuous)
    }

    /// `sleep(until:)` for the model's own loops: false when the task was cancelled.
    func pause(until deadline: LinkInstant) async -> Bool {
        do {
            try await sleep(until: deadline)
            return true
        } catch {
            return false
        }
    }
}
