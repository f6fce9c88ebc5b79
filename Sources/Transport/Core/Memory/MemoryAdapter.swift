/// A modelled central adapter: one radio whose airtime every link made through it shares, with its
/// connection events scheduled as `SharedAirtime` describes. Give it to a `MemoryConnector`; a
/// connector without one gives each link a radio of its own, as before.
///
///     let clock = LinkClock.realTime()
///     let adapter = MemoryAdapter(clock: clock)
///     let connector = MemoryConnector(clock: clock, adapter: adapter)
///
/// The adapter and its connector must use the same clock. An actor because each link's radio loop
/// asks it for the air from its own task; it suspends a loop only while another link's event holds
/// the radio.
public actor MemoryAdapter {
    typealias Seat = SharedAirtime.Seat

    private var airtime: SharedAirtime
    private var waiters: [Seat: CheckedContinuation<SharedAirtime.Grant?, Never>] = [:]

    public init(clock: LinkClock) { airtime = SharedAirtime(origin: clock.now) }

    /// The links on the adapter now.
    public var connectionCount: Int { airtime.memberCount }

    /// The adapter's modelled capacity for links with `profile`, in value bytes per second of
    /// full-size writes without response: what one connection carries with the whole radio
    /// (`LinkProfile.writeCommandCeiling`, RadioTiming's formula). N links sharing the interval
    /// carry at most this together; less when a window of T/N holds fewer whole exchanges than
    /// its share of T does (2M, MTU 498: 8 links at 60 ms get 5 slots each, 40 of the 43 one link
    /// would get: 93 %).
    public static func capacity(for profile: LinkProfile) -> Double { profile.writeCommandCeiling }

    /// Links holding the radio or waiting for it (for tests on a manual clock).
    var pendingRequests: Int { airtime.requestCount }

    func join(interval: Duration) -> Seat { airtime.join(interval: interval) }

    /// The radio for `seat`'s next connection event at or after `notBefore`; nil once the seat left.
    func acquire(_ seat: Seat, notBefore: MonotonicInstant) async -> SharedAirtime.Grant? {
        switch airtime.request(seat, notBefore: notBefore) {
        case .granted(let grant): return grant
        case .refused: return nil
        case .queued: return await withCheckedContinuation { waiters[seat] = $0 }
        }
    }

    /// At `grant`'s anchor: the grant to carry now (`grant` itself), or one to wait for first; nil
    /// once the seat left. Suspends while another connection's event holds the radio.
    func begin(_ seat: Seat, _ grant: SharedAirtime.Grant) async -> SharedAirtime.Grant? {
        switch airtime.begin(seat, grant) {
        case .granted(let next): return next
        case .refused: return nil
        case .queued: return await withCheckedContinuation { waiters[seat] = $0 }
        }
    }

    /// `seat`'s event ended at `end`. With `notBefore`, also its request for the next event, whose
    /// grant it returns (suspending while another event holds the radio); nil without.
    func release(_ seat: Seat, at end: MonotonicInstant, requesting notBefore: MonotonicInstant?) async -> SharedAirtime.Grant? {
        let next = airtime.release(seat, at: end, requesting: notBefore)
        if let (granted, grant) = next, granted == seat { return grant }
        wake(next)
        guard notBefore != nil else { return nil }
        return await withCheckedContinuation { waiters[seat] = $0 }
    }

    func leave(_ seat: Seat) {
        let (wasWaiting, next) = airtime.leave(seat)
        if wasWaiting { waiters.removeValue(forKey: seat)?.resume(returning: nil) }
        wake(next)
    }

    /// A seat granted while it sleeps towards an earlier promise has no waiter: its `begin` finds
    /// the new grant.
    private func wake(_ next: (Seat, SharedAirtime.Grant)?) {
        guard let (seat, grant) = next else { return }
        waiters.removeValue(forKey: seat)?.resume(returning: grant)
    }
}
