extension LinkProfile {
    /// How many connection events a burst of writes (Write Commands or Requests) of these value
    /// sizes occupies on this link when the first goes out at an event's start and each is queued in
    /// time: `RadioTiming`'s slot rules, each slot with an empty answer. For ceilings of protocols
    /// that stop and wait (Nordic DFU), where a burst's last, partly filled event is what counts, not
    /// the steady-state rate `writeCommandCeiling` gives. 0 for no writes.
    public func connectionEvents(carrying valueSizes: [Int]) -> Int {
        let timing = timing
        let pieces = valueSizes.flatMap { timing.fragments(sduSize: RadioTiming.l2capHeader + 3 + $0) }
        var index = 0, events = 0
        while index < pieces.count {
            var elapsed = Duration.zero, slots = 0
            while index < pieces.count {
                let next = timing.slot(central: pieces[index], peripheral: 0)
                guard timing.fits(slots: slots, elapsed: elapsed, next: next) else { break }
                elapsed += next
                slots += 1
                index += 1
            }
            events += 1
        }
        return events
    }
}
