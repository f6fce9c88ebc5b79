import Transport

/// The time base of one update, passed in: the engine reads no clock of its own.
///
/// - Model time (`now`, `sleep(untilElapsed:)`): the deadlines of protocol requests and transfer
///   chunks, stage durations and transfer rates. A model clock (the memory link's `LinkClock` at a
///   scale above 0) keeps them in the model's time, so a test that runs the radio model 20 times
///   faster still measures the modelled kB/s.
/// - Real time (`reachableBy`, `pause`): how long the user waits for a device to become reachable
///   (connect, reconnect, the reboot), because `Connector` deadlines are real time (see
///   `Connector`). Only tests replace it.
public struct EngineClock: Sendable {
    /// Model time, as the instants the protocol cores work in; handed to their sessions.
    let model: InstantClock
    private let wallNow: @Sendable () -> ContinuousClock.Instant
    private let wallSleep: @Sendable (ContinuousClock.Instant) async throws -> Void

    /// Any clock whose durations are `Duration`. An unpaced model clock (scale 0) must not be used:
    /// its sleeps return at once, so every deadline would pass immediately. `realTime` is where
    /// waits for a device begin (`reachableBy`) and `realSleep` how they are waited out (`pause`);
    /// only tests replace them.
    public init<C: Clock>(_ clock: C, realTime: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                          realSleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void = {
                              try await ContinuousClock().sleep(until: $0, tolerance: nil)
                          })
        where C.Duration == Duration {
        model = InstantClock(clock)
        wallNow = realTime
        wallSleep = realSleep
    }

    /// Real time.
    public static var continuous: EngineClock { EngineClock(ContinuousClock()) }

    /// Model time since this clock value was made; only differences mean anything.
    var now: Duration { model.now.sinceOrigin }

    /// Sleeps until `now` reaches `offset` (model time). Throws when the task is cancelled.
    func sleep(untilElapsed offset: Duration) async throws {
        try await model.sleep(until: MonotonicInstant(sinceOrigin: offset))
    }

    /// The real-time deadline `allowance` from now, for a `Connector` (connect, reconnect, the
    /// reboot) and the waits bounded by them.
    func reachableBy(_ allowance: Duration) -> ContinuousClock.Instant {
        wallNow().advanced(by: allowance)
    }

    /// Whether a real-time deadline has passed.
    func hasPassed(_ deadline: ContinuousClock.Instant) -> Bool {
        wallNow() >= deadline
    }

    /// Real time left until `deadline`; zero once it has passed.
    func remaining(until deadline: ContinuousClock.Instant) -> Duration {
        max(.zero, wallNow().duration(to: deadline))
    }

    /// Waits `delay` of real time (a backoff between connect attempts); returns early when the task
    /// is cancelled.
    func pause(for delay: Duration) async {
        try? await wallSleep(wallNow().advanced(by: delay))
    }

    /// Waits until the real-time `deadline`; throws when the task is cancelled first.
    func pause(until deadline: ContinuousClock.Instant) async throws {
        try await wallSleep(deadline)
    }
}
