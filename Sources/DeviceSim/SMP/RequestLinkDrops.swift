import DFUCore

/// The link drops and resets a device was told to make at given requests (`SimFault.dropLink`,
/// `SimFault.rebootAtRequest`), and how many requests of each command it has received, which picks
/// the Nth. The counts belong to the fault,
/// not to the device's RAM: a reset does not start them again, so `state-read:2` can be the read
/// after the reboot.
struct RequestLinkDrops: Sendable {
    private var pending: [SimFault]
    private var counts: [SMPCommand: Int] = [:]

    init(_ faults: [SimFault]) {
        pending = faults.filter { Self.atRequest($0) != nil }
    }

    var isEmpty: Bool { pending.isEmpty }

    /// Counts the complete request `packet` and returns the drop due at it (removed from the
    /// pending ones), with the moment it closes the link. `session` is the upload in progress, to
    /// tell an upload request that ends the image.
    mutating func arrived(_ packet: [UInt8], session: UploadSession?) -> (fault: SimFault, moment: LinkDropMoment)? {
        guard packet.count >= SMPRequestHeader.size else { return nil }
        let header = SMPRequestHeader(packet[...])
        guard let command = SMPCommand(header) else { return nil }
        counts[command, default: 0] += 1
        let count = counts[command, default: 0]
        guard !pending.isEmpty else { return nil }
        for (index, fault) in pending.enumerated() {
            guard let (moment, point) = Self.atRequest(fault), point.command == command else { continue }
            let due: Bool
            switch point.ordinal {
            case .nth(let n): due = n == count
            case .last: due = Self.endsImage(packet, header: header, session: session)
            }
            guard due else { continue }
            pending.remove(at: index)
            return (fault, moment)
        }
        return nil
    }

    /// The moment and request of a fault that waits for a request; nil for the upload faults.
    private static func atRequest(_ fault: SimFault) -> (LinkDropMoment, SMPRequestPoint)? {
        switch fault {
        case .dropLink(let moment, let point), .rebootAtRequest(let moment, let point): return (moment, point)
        default: return nil
        }
    }

    /// Whether an upload request's data reaches the end of the image: its own `len` at offset 0,
    /// else the session's (whose offset may still lag: earlier chunks can wait in the queue).
    private static func endsImage(_ packet: [UInt8], header: SMPRequestHeader, session: UploadSession?) -> Bool {
        let body = packet.dropFirst(SMPRequestHeader.size).prefix(header.length)
        guard let map = (try? CBORDecoder().decode(body))?.map, let request = try? ImageUploadRequest(body: map),
              !request.data.isEmpty else { return false }
        let end = request.offset + UInt64(request.data.count)
        if request.offset == 0, let length = request.length { return end == length }
        guard let session, request.offset > 0 else { return false }
        return end == UInt64(session.length)
    }
}
