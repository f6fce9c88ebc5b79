import Transport

/// The time base of one update: the deadlines of SMP requests and upload chunks, stage durations
/// and transfer rates. A model clock (the memory link's `LinkClock` at a scale above 0) keeps
/// deadlines and rates in the model's time, so a test that runs the radio model 20 times faster
/// still measures the modelled kB/s; everything else uses the continuous clock.
///
/// Waiting for a device to become reachable is not on this clock: `Connector` deadlines are real
/// time, because they bound how long the user waits (see `Connector`).
public struct EngineClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let wallNow: @Sendable () -> ContinuousClock.Instant
    private let sessionFactory: @Sendable (any Link, SMPSession.Configuration) async throws(LinkError) -> SMPSession

    /// Any clock whose durations are `Duration`. An unpaced model clock (scale 0) must not be used:
    /// its sleeps return at once, so every deadline would pass immediately.
    /// `realTime` is where waits for a device begin (`reachableBy`); only tests replace it.
    public init<C: Clock>(_ clock: C, realTime: @escaping @Sendable () -> ContinuousClock.Instant = { .now })
        where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        wallNow = realTime
        sessionFactory = { link, configuration async throws(LinkError) in
            try await SMPSession(link: link, configuration: configuration, clock: clock)
        }
    }

    /// Real time.
    public static var continuous: EngineClock { EngineClock(ContinuousClock()) }

    /// Time since this clock value was made; only differences mean anything.
    var now: Duration { elapsed() }

    /// The real-time deadline `allowance` from now, for a `Connector` (connect, reconnect, the
    /// reboot): the one place the engine reads the wall clock.
    func reachableBy(_ allowance: Duration) -> ContinuousClock.Instant {
        wallNow().advanced(by: allowance)
    }

    /// An SMP session on `link` whose deadlines run on this clock (it subscribes to the SMP
    /// characteristic).
    func session(on link: any Link, configuration: SMPSession.Configuration) async throws(LinkError) -> SMPSession {
        try await sessionFactory(link, configuration)
    }
}
