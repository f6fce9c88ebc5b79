/// The radio's loop: connection events while either side has fragments to send, on a radio of its
/// own or in the windows a shared adapter grants (`MemoryAdapter`).
extension MemoryRadio {

    var hasAirWork: Bool { paths.central.head != nil || paths.device.head != nil }

    /// Plays connection events while either side has fragments in buffers; idles otherwise.
    func runAir() async {
        if let adapter, let seat { return await runSharedAir(adapter, seat: seat) }
        var nextEvent = 0
        while isOpen {
            guard hasAirWork else {
                await withCheckedContinuation { workWaiter = $0 }
                // From when the work was queued, not from when this task got to run: the model's
                // schedule must not depend on how busy the machine is.
                let elapsed = origin.duration(to: workQueuedAt ?? clock.now)
                nextEvent = max(nextEvent, Int((elapsed / profile.connectionInterval).rounded(.up)))
                continue
            }
            let anchor = origin.advanced(by: profile.connectionInterval * nextEvent)
            guard await clock.pause(until: anchor), isOpen, !dropTimeReached(at: anchor) else { return }
            await runEvent(at: anchor)
            nextEvent += 1
        }
    }

    /// `runAir` on a shared adapter: each event is one the adapter granted, bounded by its window.
    /// The adapter learns when each event ended, so the next connection's may start, and in the
    /// same call whether this one wants another; leaving it (`drop`) frees the radio if this
    /// connection held it.
    func runSharedAir(_ adapter: MemoryAdapter, seat: MemoryAdapter.Seat) async {
        var notBefore = origin
        var next: SharedAirtime.Grant?
        while isOpen {
            guard hasAirWork else {
                await withCheckedContinuation { workWaiter = $0 }
                // As in `runAir`: from when the work was queued, not when this task got to run.
                notBefore = max(notBefore, workQueuedAt ?? clock.now)
                continue
            }
            if next == nil { next = await adapter.acquire(seat, notBefore: notBefore) }
            guard var grant = next, isOpen else { return }
            while true {
                guard await clock.pause(until: grant.anchor), isOpen, !dropTimeReached(at: grant.anchor),
                      let confirmed = await adapter.begin(seat, grant), isOpen else { return }
                if confirmed == grant { break }
                // An earlier event took the radio: this one was planned again.
                grant = confirmed
            }
            let end = await runEvent(at: grant.anchor, window: grant.window)
            // One event per window: the next is in a later one.
            notBefore = grant.end
            next = await adapter.release(seat, at: end, requesting: hasAirWork ? notBefore : nil)
        }
    }

    /// One connection event: exchanges fragments slot by slot (RadioTiming's rules) until neither
    /// side has data, the event is full, or the link drops. A fragment's buffer is freed, and an SDU
    /// delivered, when its slot ends. `window` bounds the event on a shared adapter. Returns when
    /// the event's last slot ended.
    @discardableResult
    func runEvent(at anchor: MonotonicInstant, window: Duration? = nil) async -> MonotonicInstant {
        var elapsed = Duration.zero
        var slots = 0
        var ended: MonotonicInstant { anchor.advanced(by: elapsed) }
        while isOpen {
            let centralSize = paths.central.head?.size
            let deviceSize = paths.device.head?.size
            if centralSize == nil, deviceSize == nil { return ended }
            let length = timing.slot(central: centralSize ?? 0, peripheral: deviceSize ?? 0)
            guard timing.fits(slots: slots, elapsed: elapsed, next: length, window: window) else { return ended }
            elapsed += length
            slots += 1
            let end = anchor.advanced(by: elapsed)
            // Only this loop removes fragments (drop() clears them and closes), so the heads seen
            // above are still the heads after the pause.
            guard await clock.pause(until: end), isOpen else { return ended }
            if slots == 1 {
                stats.connectionEvents += 1
                if stats.firstEventAt == nil { stats.firstEventAt = anchor }
                stats.lastEventAt = anchor
            }
            if centralSize != nil, let fragment = paths.central.sendHead() {
                stats.centralPDUs += 1
                if let pdu = fragment.completes { arrivedAtPeripheral(pdu) }
                guard isOpen else { return ended }
            }
            if deviceSize != nil, let fragment = paths.device.sendHead() {
                stats.peripheralPDUs += 1
                if let pdu = fragment.completes { arrivedAtCentral(pdu, at: end) }
            }
            accept(paths.central.fill())
            accept(paths.device.fill())
            if paths.device.isEmpty { releaseFlushWaiters() }
            if dropTimeReached(at: end) { return ended }
        }
        return ended
    }
}
