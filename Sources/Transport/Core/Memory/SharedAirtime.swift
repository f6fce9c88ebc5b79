/// The plan of one adapter's radio: which connection may use the air when, as a central's
/// controller schedules the connection events of the links it holds. A plain value that
/// `MemoryAdapter` owns; it returns who to wake instead of waking anyone, and reads no clock.
///
/// ## Model
///
/// - The adapter's connections (its *seats*, in the order they joined) split each connection
///   interval T into equal windows: seat k of N owns `[origin + m·T + k·T/N, … + T/N)` in every
///   period m. A connection's event starts at its window's start (the anchor) and is bounded by the
///   window's end, i.e. by the next connection's anchor: N connections on one interval get about
///   1/N of the radio each, and together no more than one connection alone (N windows of T/N
///   hold at most the slots one T does).
/// - When a connection joins or leaves, the windows are planned again from the next event on, as a
///   controller would move anchors with a connection update; a window already granted is kept.
/// - The radio carries one event at a time. A grant is promised until its connection `begin`s the
///   event at the anchor; a request whose window starts earlier takes the radio from a promise not
///   yet begun (the promised connection learns it at `begin` and waits again). A connection that
///   asks while an event runs waits for its release, and then gets its first window that starts
///   after both the release and the instant it asked for (an event whose anchor was taken is
///   skipped, as a controller skips it). Among waiters the earliest window goes first. So events
///   never overlap in model time and happen in model-time order even on an unpaced clock.
/// - Idealisations: a connection without data leaves its window unused (a controller's empty poll
///   events cost no modelled airtime); a window shorter than one exchange still carries one (an
///   event's first slot always goes, `RadioTiming.fits`) and the next connection skips its overrun
///   anchor, so windows are meant to hold whole exchanges. Requests are served in the order they
///   reach the adapter: in real time a connection with data asks within far less than a window,
///   but on an unpaced or manual clock the others can run past the window of a connection whose
///   task has not asked yet (a test lets every connection ask before it moves the clock).
struct SharedAirtime {
    typealias Seat = UInt64

    /// One connection event the radio is given to: it starts at `anchor` and must end by `end`.
    struct Grant: Hashable, Sendable {
        let anchor: MonotonicInstant
        let end: MonotonicInstant

        var window: Duration { anchor.duration(to: end) }
    }

    enum Decision: Hashable, Sendable {
        case granted(Grant)
        /// Another connection holds the radio; `release` or `leave` will grant this one.
        case queued
        /// The seat is not (or no longer) on the adapter.
        case refused
    }

    /// Period 0 starts here.
    let origin: MonotonicInstant
    private var seats: [(seat: Seat, interval: Duration)] = []
    private var lastSeat: Seat = 0
    /// The event the radio is promised to, or carrying once `started`.
    private var holder: (seat: Seat, grant: Grant, notBefore: MonotonicInstant, started: Bool)?
    /// No event may start before this: the end of the last event the radio carried.
    private var freeFrom: MonotonicInstant
    private var waiting: [(seat: Seat, notBefore: MonotonicInstant)] = []

    init(origin: MonotonicInstant) {
        self.origin = origin
        freeFrom = origin
    }

    var memberCount: Int { seats.count }

    /// Seats holding the radio or waiting for it.
    var requestCount: Int { (holder == nil ? 0 : 1) + waiting.count }

    /// A new connection with this interval; it gets a window from its first request on.
    mutating func join(interval: Duration) -> Seat {
        lastSeat += 1
        seats.append((lastSeat, interval))
        return lastSeat
    }

    /// The radio for `seat`'s next event at or after `notBefore`, or a place in the queue.
    mutating func request(_ seat: Seat, notBefore: MonotonicInstant) -> Decision {
        guard seats.contains(where: { $0.seat == seat }), holder?.seat != seat,
              !waiting.contains(where: { $0.seat == seat }) else { return .refused }
        guard let grant = window(for: seat, notBefore: notBefore) else { return .refused }
        if let current = holder {
            guard !current.started, grant.anchor < current.grant.anchor else {
                waiting.append((seat, notBefore))
                return .queued
            }
            // An earlier event goes first; the promised one is planned again after it.
            waiting.append((current.seat, current.notBefore))
        }
        holder = (seat, grant, notBefore, false)
        return .granted(grant)
    }

    /// `seat` is at `grant`'s anchor: `.granted(grant)` if the event is its to carry now, another
    /// grant (to wait for) if it was planned again, `.queued` if it waits for the radio again.
    mutating func begin(_ seat: Seat, _ grant: Grant) -> Decision {
        if let current = holder, current.seat == seat {
            if current.grant == grant { holder?.started = true }
            return .granted(current.grant)
        }
        return waiting.contains { $0.seat == seat } ? .queued : .refused
    }

    /// `seat`'s event ended at `end`; returns the waiter granted next, if any. With `notBefore`,
    /// the seat asks for its next event in the same step, so no other event can be granted before
    /// its request is in (on an unpaced or manual clock the others would run on meanwhile).
    mutating func release(_ seat: Seat, at end: MonotonicInstant, requesting notBefore: MonotonicInstant?) -> (Seat, Grant)? {
        guard let current = holder, current.seat == seat else { return nil }
        freeFrom = max(freeFrom, end, current.grant.anchor)
        holder = nil
        if let notBefore { waiting.append((seat, notBefore)) }
        return grantNext()
    }

    /// `seat` left (its link dropped). Returns whether it was waiting (its request ends without a
    /// grant) and the waiter granted next if it held the radio.
    mutating func leave(_ seat: Seat) -> (wasWaiting: Bool, next: (Seat, Grant)?) {
        seats.removeAll { $0.seat == seat }
        let wasWaiting = waiting.contains { $0.seat == seat }
        waiting.removeAll { $0.seat == seat }
        guard let current = holder, current.seat == seat else { return (wasWaiting, nil) }
        // The event was cut short; the air is free from its anchor on at the latest.
        freeFrom = max(freeFrom, current.grant.anchor)
        holder = nil
        return (wasWaiting, grantNext())
    }

    private mutating func grantNext() -> (Seat, Grant)? {
        let candidates = waiting.enumerated().compactMap { index, entry in
            window(for: entry.seat, notBefore: entry.notBefore).map { (index, entry.seat, $0) }
        }
        guard let first = candidates.min(by: { $0.2.anchor < $1.2.anchor }) else { return nil }
        let entry = waiting.remove(at: first.0)
        holder = (entry.seat, first.2, entry.notBefore, false)
        return (entry.seat, first.2)
    }

    /// The seat's first window starting at or after both `notBefore` and `freeFrom`.
    private func window(for seat: Seat, notBefore: MonotonicInstant) -> Grant? {
        guard let index = seats.firstIndex(where: { $0.seat == seat }) else { return nil }
        let interval = seats[index].interval.wholeNanoseconds
        let slice = interval / Int64(seats.count)
        let offset = slice * Int64(index)
        let earliest = origin.duration(to: max(notBefore, freeFrom)).wholeNanoseconds - offset
        // Whole nanoseconds, so an anchor exactly at `earliest` is not lost to rounding.
        let period = earliest <= 0 ? 0 : (earliest + interval - 1) / interval
        let anchor = origin.advanced(by: .nanoseconds(period * interval + offset))
        return Grant(anchor: anchor, end: anchor.advanced(by: .nanoseconds(slice)))
    }
}
