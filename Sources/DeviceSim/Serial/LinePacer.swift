import Transport

/// The time a UART line takes to carry bytes: 10 bits a byte (8N1: a start bit, 8 data bits, a
/// stop bit) at the modelled baud rate. One pacer per direction: a byte cannot arrive before the
/// line carried the ones before it.
struct LinePacer: Sendable {
    let baud: Int
    /// When the line has carried everything given so far.
    private(set) var freeAt: MonotonicInstant = .zero

    init(baud: Int) { self.baud = max(baud, 1) }

    /// How long `count` bytes take on the line.
    func duration(of count: Int) -> Duration {
        .nanoseconds(Int64(clamping: (Int64(count) * 10 * 1_000_000_000) / Int64(baud)))
    }

    /// `count` more bytes, starting no earlier than `now`: returns when the last of them has arrived.
    mutating func carry(_ count: Int, from now: MonotonicInstant) -> MonotonicInstant {
        freeAt = max(freeAt, now).advanced(by: duration(of: count))
        return freeAt
    }

    /// Bytes per second the line carries at most.
    var ceiling: Double { Double(baud) / 10 }
}
