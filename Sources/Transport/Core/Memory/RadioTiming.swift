/// The airtime arithmetic of one LE connection, shared by the ceiling formula and the radio loop so
/// that what the model does and what it promises cannot drift apart.
///
/// ## Model (sources: Core spec v5.4 Vol 6 Part B §2.1 packet format, §2.4 data PDU, §4.1.1
/// T_IFS; the Bluetooth SIG method of "Exploring Bluetooth 5 – how fast can it be" [T1] as worked
/// through by Goodix [T2]; see docs reference peers.md §2)
///
/// - One LL data PDU with an n-byte payload is on air for
///   `(preamble + 4 access address + 2 header + n + MIC + 3 CRC) × 8 bits / bit rate`, where the
///   preamble is 1 byte at LE 1M and 2 bytes at LE 2M, the bit rate 1 or 2 Mbit/s, and the MIC 4
///   bytes on encrypted links for n > 0 (never on an empty PDU), else 0.
/// - A slot is one exchange: the central's PDU, T_IFS = 150 µs, the peripheral's PDU (an empty
///   one when it has nothing to send), T_IFS. A full 251-byte exchange with an empty answer takes
///   2088+150+80+150 = 2468 µs at 1M (2500 µs with MIC, the SIG's figure) and
///   1048+150+44+150 = 1392 µs at 2M.
/// - An ATT value of v bytes in a Write Command (or Notification) is an L2CAP SDU of
///   `4 (L2CAP header) + 3 (ATT opcode + handle) + v` bytes, cut into LL PDUs of at most
///   `llPayload` bytes; fragments of one SDU may straddle connection events.
/// - Connection events start every connection interval. An event carries slots while the next
///   whole slot still ends within the event length (the interval, unless the controller's event
///   length is shorter) and fewer than `maxPacketsPerEvent` slots were used; the first slot is
///   always sent.
/// - Ceiling = value bytes completed per second in steady state with the transmit buffers never
///   empty. It is computed by running events from the first fragment of a write until the
///   fragment index at an event's start repeats (it must, within `fragments` events), then
///   dividing the value bytes of the writes completed in that cycle by its length in intervals.
///
/// Results (value bytes/s, kB = 1000 B): 2M, LL 251, MTU 498, 7.5 ms: 5 slots of 1392 µs per
/// event, a 495-byte write is 502 bytes = 2 PDUs, so 2.5 writes per event = 165.0 kB/s.
/// 1M, LL 251, MTU 247, 30 ms: 12 slots of 2468 µs, one 244-byte write each = 97.6 kB/s.
/// Without an interval limit the per-slot rates are the SIG's: 244 B / 2500 µs = 97.6 kB/s at
/// 1M with MIC (98.9 kB/s without) and 244 B / 1392 µs = 175.3 kB/s at 2M without MIC.
///
/// Idealisations: the host refills a freed controller buffer at once; no retransmissions; the
/// peripheral answers every PDU in the same slot.
struct RadioTiming: Hashable, Sendable {
    let phy: LinkPHY
    let llPayload: Int
    let encrypted: Bool
    let connectionInterval: Duration
    /// The part of each interval the controller may use.
    let eventLength: Duration
    let maxPacketsPerEvent: Int?

    static let interFrameSpace = Duration.microseconds(150)
    /// The L2CAP basic header: length and channel id.
    static let l2capHeader = 4

    /// Airtime of one LL data PDU with `payload` bytes (0 = an empty PDU).
    func airtime(payload: Int) -> Duration {
        let preamble = phy == .le1M ? 1 : 2
        let mic = encrypted && payload > 0 ? 4 : 0
        let bytes = preamble + 4 + 2 + payload + mic + 3
        let nanosecondsPerByte = phy == .le1M ? 8_000 : 4_000
        return .nanoseconds(bytes * nanosecondsPerByte)
    }

    /// One exchange: central PDU, T_IFS, peripheral PDU, T_IFS (0 bytes = empty PDU).
    func slot(central: Int, peripheral: Int) -> Duration {
        airtime(payload: central) + Self.interFrameSpace + airtime(payload: peripheral) + Self.interFrameSpace
    }

    /// LL PDU payload sizes carrying one L2CAP SDU (header included) of `sduSize` bytes.
    func fragments(sduSize: Int) -> [Int] {
        var sizes: [Int] = []
        var left = max(sduSize, 1)
        while left > 0 {
            sizes.append(min(left, llPayload))
            left -= llPayload
        }
        return sizes
    }

    /// Whether one more slot of length `next` fits in an event that has used `slots` slots and
    /// `elapsed` time so far. The first slot always fits. `window` bounds the event further: on a
    /// shared adapter, the time until the next connection's anchor (`SharedAirtime`).
    func fits(slots: Int, elapsed: Duration, next: Duration, window: Duration? = nil) -> Bool {
        if let cap = maxPacketsPerEvent, slots >= cap { return false }
        return slots == 0 || elapsed + next <= min(eventLength, window ?? eventLength)
    }

    /// Value bytes per second for an endless stream of Write Commands carrying `valueSize` bytes.
    func writeCommandCeiling(valueSize: Int) -> Double {
        guard valueSize > 0 else { return 0 }
        let pieces = fragments(sduSize: Self.l2capHeader + 3 + valueSize)
        var seen: [Int: (event: Int, writes: Int)] = [:]
        var index = 0, event = 0, writes = 0
        while seen[index] == nil {
            seen[index] = (event, writes)
            var elapsed = Duration.zero, slots = 0
            while true {
                let next = slot(central: pieces[index], peripheral: 0)
                guard fits(slots: slots, elapsed: elapsed, next: next) else { break }
                elapsed += next
                slots += 1
                if index == pieces.count - 1 {
                    writes += 1
                    index = 0
                } else {
                    index += 1
                }
            }
            event += 1
        }
        guard let start = seen[index] else { return 0 }
        let cycle = connectionInterval * (event - start.event)
        return Double((writes - start.writes) * valueSize) / cycle.seconds
    }
}
