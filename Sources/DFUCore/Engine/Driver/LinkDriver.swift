import Transport

/// The I/O half every protocol session shares (quinn's `ConnectionDriver`): it serves one link at
/// a time (`ServedLink`: a listener and an ordered writer), drops events of an earlier link (an
/// older generation) before the session sees them, reports losses on `linkLosses`, keeps the
/// attach and close bookkeeping, and runs the one timer (`CoreTimer`) on the one clock. It knows no
/// protocol: the session says what a `Write` is and how it goes out, and feeds its sans-I/O core,
/// which makes every protocol decision.
///
/// A struct owned by the session actor and used only on it, not an actor or a base class: Swift
/// actors cannot inherit, and a second actor would put a hop (and an ordering question) between
/// every event and the core. Its methods are synchronous and return what happened, so the session
/// feeds its core after a call, never from inside one (which would touch the driver while it is
/// being changed). The tasks it starts reach the session only through the closures the session
/// hands in, which hold it `weak` and hop onto it.
///
/// The session's part: on a link event, `accept` it (nil: stale) and, for a loss, tell its core,
/// then `reportLoss`; in `attach`, `dropCurrentLink` (true: tell the core the old link is lost),
/// subscribe, then serve the new link if `canServe` still holds; on the core's `.timer(at:)`,
/// `arm`, and when it fires, `timerFired`, feed the core, and `arm` its `nextDeadline`; `close` on
/// the way out and in `deinit`.
struct LinkDriver<Write: Sendable>: Sendable {
    /// Yields each time the served link goes down, so the owner (the engine) knows to reconnect
    /// and `attach` the new link. One consumer.
    let linkLosses: AsyncStream<DisconnectReason>
    private let lossesContinuation: AsyncStream<DisconnectReason>.Continuation
    /// The time base of every deadline, as the cores' instants.
    let clock: InstantClock
    private var served: ServedLink<Write>?
    private var timer: CoreTimer
    private(set) var isClosed = false

    init(clock: InstantClock) {
        self.clock = clock
        timer = CoreTimer(clock: clock)
        (linkLosses, lossesContinuation) = AsyncStream.makeStream(of: DisconnectReason.self)
    }

    var now: MonotonicInstant { clock.now }

    /// The link served now.
    var link: (any Link)? { served?.link }

    /// The generation of the link served now; a write's outcome that arrives later is acted on
    /// only while it is still this one.
    var generation: LinkGeneration? { served?.generation }

    /// Whether a new link may be served: not closed, and no link served (checked again after an
    /// `attach` awaited its subscription, during which a close or another attach may have run).
    var canServe: Bool { !isClosed && served == nil }

    /// Serves `link` from now on: `events` and `write` as `ServedLink` takes them.
    mutating func serve(_ link: any Link, events: @escaping @Sendable (LinkEvent) async -> Void,
                        write: @escaping @Sendable (Write, any Link) async throws(LinkError) -> Void) {
        served = ServedLink(link, events: events, write: write)
    }

    /// Queues a write on the served link; without one it goes nowhere (the core learns of the
    /// loss from the link's own event).
    func send(_ write: Write) { served?.send(write) }

    /// What `event` says, or nil when it belongs to an earlier link (or none is served). A
    /// `.disconnected` ends serving the link; the session then tells its core and `reportLoss`.
    mutating func accept(_ event: LinkEvent) -> LinkEvent.Kind? {
        guard let served, event.generation == served.generation else { return nil }
        if case .disconnected = event.kind {
            self.served = nil
            served.stop()
        }
        return event.kind
    }

    func reportLoss(_ reason: DisconnectReason) { lossesContinuation.yield(reason) }

    /// Stops serving the current link without waiting for its `.disconnected` (a new link is being
    /// attached). True when there was one: the core must hear of its loss before of the new link.
    mutating func dropCurrentLink() -> Bool {
        guard let served else { return false }
        self.served = nil
        served.stop()
        return true
    }

    /// Arms the one timer (`CoreTimer`'s policy); `fire` hops onto the session, which calls
    /// `timerFired` first.
    mutating func arm(_ deadline: MonotonicInstant?, fire: @escaping @Sendable () async -> Void) {
        timer.arm(deadline, fire: fire)
    }

    mutating func timerFired() { timer.fired() }

    mutating func cancelTimer() { timer.cancel() }

    /// Stops serving for good: the link is left as it is (its owner disconnects it), the timer is
    /// cancelled and `linkLosses` finishes.
    mutating func close() {
        isClosed = true
        served?.stop()
        served = nil
        timer.cancel()
        lossesContinuation.finish()
    }
}
