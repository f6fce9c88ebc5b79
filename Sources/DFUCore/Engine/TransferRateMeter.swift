import Transport

/// Goodput of an upload as the device acknowledges it, measured from the first acknowledged chunk:
/// the first reply waits for the device to erase its slot, which says nothing about the link.
/// Pure (times come in as arguments), so it is tested without a clock.
struct TransferRateMeter: Sendable {
    /// When the measurement started and how many bytes the device held then.
    private var base: (at: Duration, bytes: Int)?

    /// Records the device's count `acknowledged` at `now` and returns bytes per second since the
    /// base (0 until two points exist). When the count goes down (the device lost its session and
    /// the upload restarted), the measurement starts again from there.
    mutating func record(acknowledged: Int, at now: Duration) -> Double {
        guard acknowledged > 0 else { return 0 }
        guard let base, acknowledged >= base.bytes else {
            self.base = (now, acknowledged)
            return 0
        }
        let seconds = (now - base.at).seconds
        guard seconds > 0 else { return 0 }
        return Double(acknowledged - base.bytes) / seconds
    }
}
