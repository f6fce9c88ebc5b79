import Synchronization

/// The memory link's model time, so tests can run the BLE model faster than real time, or move it
/// by hand.
///
/// `timeScale` is real seconds per model second:
/// - `1`: real time. The benchmark uses this; measured kB/s are real.
/// - `0 < s < 1`: faster than real time (0.1 = ten times faster); timing stays proportional.
/// - `0`: unpaced. Model time moves only when something sleeps on the clock (airtime, latency, a
///   device's flash work), jumping to the sleeper's deadline, and a sleep only yields. Order and
///   back-pressure are kept; time-based faults fire at the first radio activity at or after their
///   time, because an idle link at scale 0 has no time passing.
/// - `.infinity`: manual (`manual()`). Model time stands still until its owner moves it with
///   `advance(by:)`; a sleep waits until then. A test's hand-moved clock, as `EmbeddedChannel`'s
///   is: nothing goes on air, boots or times out before the test says so, however busy the machine.
///
/// The model sleeps only to the instants it computes (a slot's end, a connection event's anchor), never
/// a fixed delay. A class (not a struct) because copies must share the unpaced or manual model time.
public final class LinkClock: Clock {
    public typealias Instant = MonotonicInstant

    public let timeScale: Double
    private let origin: ContinuousClock.Instant
    /// Model time at scale 0 or on a manual clock, and a manual clock's sleepers; unused otherwise.
    private let model: Mutex<ModelTime>

    private struct ModelTime {
        var now: Duration = .zero
        var sleepers: [UInt64: Sleeper] = [:]
        var lastSleeper: UInt64 = 0
    }

    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Nil when `timeScale` is negative, infinite or NaN (a manual clock comes from `manual()`).
    public init?(timeScale: Double) {
        guard timeScale.isFinite, timeScale >= 0 else { return nil }
        self.timeScale = timeScale
        origin = .now
        model = Mutex(ModelTime())
    }

    private init(validScale: Double) {
        timeScale = validScale
        origin = .now
        model = Mutex(ModelTime())
    }

    /// Model time equals real time.
    public static func realTime() -> LinkClock { LinkClock(validScale: 1) }

    /// As fast as possible: see the type's notes on scale 0.
    public static func unpaced() -> LinkClock { LinkClock(validScale: 0) }

    /// Moved by hand with `advance(by:)`: see the type's notes.
    public static func manual() -> LinkClock { LinkClock(validScale: .infinity) }

    private var isManual: Bool { timeScale == .infinity }

    public var now: MonotonicInstant {
        if timeScale == 0 || isManual { return MonotonicInstant(sinceOrigin: model.withLock { $0.now }) }
        return MonotonicInstant(sinceOrigin: (ContinuousClock.now - origin) / timeScale)
    }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: MonotonicInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        if isManual { return try await sleepUntilAdvanced(to: deadline.sinceOrigin) }
        if timeScale == 0 {
            model.withLock { $0.now = max($0.now, deadline.sinceOrigin) }
            await Task.yield()
            try Task.checkCancellation()
            return
        }
        let realDeadline = origin + deadline.sinceOrigin * timeScale
        // A deadline already past returns at once: a radio that woke late catches up on its schedule.
        guard realDeadline > .now else { return }
        try await Task.sleep(until: realDeadline, tolerance: tolerance.map { $0 * timeScale }, clock: .continuous)
    }

    /// Moves a manual clock's model time `duration` forward (a negative duration moves nothing) and
    /// wakes every sleep whose deadline it reached, earliest first. Only a manual clock's time is
    /// its owner's to move: calling this on another clock is a programming error.
    public func advance(by duration: Duration) {
        precondition(isManual, "advance(by:) moves a LinkClock.manual() clock only")
        let woken: [Sleeper] = model.withLock { time in
            time.now += max(duration, .zero)
            let now = time.now
            let due = time.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { time.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// `sleep(until:)` for the model's own loops: false when the task was cancelled.
    func pause(until deadline: MonotonicInstant) async -> Bool {
        do {
            try await sleep(until: deadline)
            return true
        } catch {
            return false
        }
    }

    /// A manual clock's sleep: returns once `advance(by:)` reached `deadline` (at once if it has),
    /// throws `CancellationError` when the task is cancelled first.
    private func sleepUntilAdvanced(to deadline: Duration) async throws {
        let id = model.withLock { time in
            time.lastSleeper += 1
            return time.lastSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Cancellation before the sleeper is registered is seen here; after, by `onCancel`.
                let waits = model.withLock { time in
                    guard deadline > time.now, !Task.isCancelled else { return false }
                    time.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            model.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}
