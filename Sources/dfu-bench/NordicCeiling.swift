import Transport

/// The shortest time the modelled link needs for the data phase of a Nordic transfer as it was
/// exchanged, and so the ceiling for the firmware bytes it carried.
///
/// The record is cut into bursts: the writes the client issued between two notifications it waited
/// for (Create; a PRN batch of packets; the object's last packets with Calculate Checksum behind
/// them; Execute). On this link (`Transport/Core/Memory/RadioTiming.swift`) a burst starts at a
/// connection event and fills events slot by slot (`LinkProfile.connectionEvents(carrying:)`: a
/// short write such as Calculate Checksum can ride in the last packets' event); the device, which
/// answers a write only after the slot that carried it, gets its ATT response and notification out
/// in the next event at the earliest, and the client's next burst goes in the event after that. So
/// a burst costs, from its first write to the next burst's:
///
///     interval × (events carrying its writes + 1)
///
/// and the ceiling is the firmware bytes over the sum. The notifications' slots fit in the event
/// they are counted in. The Nordic sim models no flash time (its bootloader answers at once), so
/// there is no flash term.
struct NordicCeiling {
    /// One burst: its kind, its writes' radio time, the modelled and the measured time.
    struct Burst: Sendable {
        let kind: String
        let writes: Int
        let modelSeconds: Double
        let measuredSeconds: Double
    }

    let link: LinkProfile

    /// The bursts of `exchanges` (which start with the first Create data); the last burst's
    /// measured time runs to the last notification.
    func bursts(_ exchanges: [NordicExchange]) -> [Burst] {
        let interval = link.connectionInterval.seconds
        var bursts: [Burst] = []
        var index = exchanges.startIndex
        while index < exchanges.endIndex {
            guard !exchanges[index].isNotification else { index += 1; continue }
            let start = exchanges[index]
            var sizes: [Int] = []
            while index < exchanges.endIndex, !exchanges[index].isNotification {
                sizes.append(exchanges[index].writeSize)
                index += 1
            }
            // The next burst's first write, or the final answer.
            var next = index
            while next < exchanges.endIndex, exchanges[next].isNotification { next += 1 }
            let end = next < exchanges.endIndex ? exchanges[next].at : (exchanges.last?.at ?? start.at)
            let events = Double(link.connectionEvents(carrying: sizes) + 1)
            bursts.append(Burst(kind: Self.kind(of: start), writes: sizes.count, modelSeconds: events * interval,
                                measuredSeconds: (end - start.at).seconds))
        }
        return bursts
    }

    private static func kind(of first: NordicExchange) -> String {
        switch first.kind {
        case .packet: return "packets"
        case .notification: return "-"
        case .request(let bytes):
            switch bytes.first {
            case 0x01: return "create"
            case 0x02: return "set-prn"
            case 0x03: return "checksum"
            case 0x04: return "execute"
            case 0x06: return "select"
            default: return "request"
            }
        }
    }
}
