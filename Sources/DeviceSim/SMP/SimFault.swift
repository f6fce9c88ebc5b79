import Transport

/// Where in an upload a fault fires: a share of the session's `len`, or a byte count. Checked each
/// time the server has written a chunk (so "40 %" means "once 40 % of the image is in flash").
public enum FaultTrigger: Sendable, Hashable, CustomStringConvertible {
    case percent(Double)
    case bytes(Int)
    /// Only in the upload to image index `image` (`image1/50%`: half way through image 1).
    indirect case inImage(Int, FaultTrigger)

    public func isReached(by progress: UploadProgress) -> Bool {
        switch self {
        case .percent(let share): return Double(progress.offset) * 100 >= share * Double(progress.length)
        case .bytes(let count): return progress.offset >= count
        case .inImage(let image, let trigger): return progress.image == image && trigger.isReached(by: progress)
        }
    }

    public var description: String {
        switch self {
        case .percent(let share):
            return share == share.rounded() ? "\(Int(share))%" : "\(share)%"
        case .bytes(let count):
            return "\(count)"
        case .inImage(let image, let trigger):
            return "image\(image)/\(trigger)"
        }
    }
}

/// A fault the virtual device injects once, when its trigger is reached. Faults are inputs chosen up
/// front (a seed picks `@random` points when options are parsed), never timers or randomness at run
/// time, so a run with the same options behaves the same.
public enum SimFault: Sendable, Hashable, CustomStringConvertible {
    /// The device asks the link to drop right after the chunk is written (its reply is lost). The
    /// device does not reset: like Zephyr, it keeps the upload session in RAM.
    case disconnect(at: FaultTrigger)
    /// The device resets itself right after the chunk is written (a watchdog, a brown-out): no
    /// reply, link gone, upload session lost.
    case reboot(at: FaultTrigger)
    /// The reply to that chunk is never sent; the device carries on.
    case stall(at: FaultTrigger)
    /// The reply to that chunk arrives with its last byte inverted (breaking its CBOR).
    case corrupt(at: FaultTrigger)
    /// The reply to that chunk is sent twice.
    case duplicate(at: FaultTrigger)
    /// The reply to that chunk is held back and sent right after the next reply (the two swap).
    /// Zephyr answers in order over one transport, so only a link that reorders (UDP) or a broken
    /// device shows this; SMP matches replies by sequence number.
    case reorder(at: FaultTrigger)
    /// The reply to that chunk arrives without its last `bytes` bytes (at most its body: the header,
    /// which announces the full length, stays whole).
    case truncate(at: FaultTrigger, bytes: Int)
    /// Once the chunk is written the battery reads `level` % (it fell during the transfer).
    case battery(at: FaultTrigger, level: UInt8)
    /// The reply to that chunk is held back for `by` (later replies queue behind it, as GATT keeps order).
    case delay(at: FaultTrigger, by: Duration)
    /// The next `count` upload requests after that chunk are answered `rc: 10` (MGMT_ERR_EBUSY)
    /// without being written, as an image manager does whose flash is still busy with earlier data
    /// (the session stays; the client is to ask again at the same offset).
    case busy(at: FaultTrigger, count: Int)
    /// The device goes deaf right after the chunk is written (its reply lost): every request is
    /// lost until one is the upload's resume packet (off 0, the session's sha), which it serves as
    /// Zephyr does (the offset it holds) and from then on answers as before. A link that cannot
    /// report its loss (UDP, a UART) shows this only as silence.
    case silent(at: FaultTrigger)
    /// Nothing reaches the device and nothing leaves it for `for` after the chunk (its reply lost
    /// too): an outage of the link that heals by itself. The device keeps its session.
    case outage(at: FaultTrigger, for: Duration)
    /// The device closes the link at a request (`drop@request:reset`): before carrying it out,
    /// instead of answering it, or right after answering it (`LinkDropMoment`). It does not reset;
    /// what it did with the request stays done, as on any drop.
    case dropLink(LinkDropMoment, at: SMPRequestPoint)
    /// The device resets at a request (`reboot@request:state-write`): as it arrives (never carried
    /// out), instead of answering once it carried it out, or right after answering. Like the
    /// upload's `reboot`: link gone, RAM lost, MCUboot runs what the flash says.
    case rebootAtRequest(LinkDropMoment, at: SMPRequestPoint)

    /// Where in an upload the fault fires; nil for a fault at a request (`dropLink`, `rebootAtRequest`).
    public var trigger: FaultTrigger? {
        switch self {
        case .disconnect(let t), .reboot(let t), .stall(let t), .corrupt(let t), .duplicate(let t), .delay(let t, _),
             .busy(let t, _), .silent(let t), .outage(let t, _), .reorder(let t), .truncate(let t, _), .battery(let t, _):
            return t
        case .dropLink, .rebootAtRequest:
            return nil
        }
    }

    /// The option syntax (`disconnect@40%`), which `SimOptions` parses back.
    public var description: String {
        switch self {
        case .disconnect(let t): return "disconnect@\(t)"
        case .reboot(let t): return "reboot@\(t)"
        case .stall(let t): return "stall@\(t)"
        case .corrupt(let t): return "corrupt@\(t)"
        case .duplicate(let t): return "duplicate@\(t)"
        case .delay(let t, let d): return "delay@\(t):\(d.wholeMilliseconds)ms"
        case .busy(let t, let count): return count == 1 ? "busy@\(t)" : "busy@\(t):\(count)"
        case .silent(let t): return "silent@\(t)"
        case .outage(let t, let d): return "outage@\(t):\(d.wholeMilliseconds)ms"
        case .reorder(let t): return "reorder@\(t)"
        case .truncate(let t, let bytes): return bytes == 1 ? "truncate@\(t)" : "truncate@\(t):\(bytes)"
        case .battery(let t, let level): return "battery@\(t):\(level)"
        case .dropLink(let moment, let point): return "\(moment.kind)@\(point)"
        case .rebootAtRequest(let moment, let point): return "\(moment.rebootKind)@\(point)"
        }
    }
}

/// Marks a notification a fault changed, so a transport or a log can tell injected damage from a bug.
public enum NotificationFault: Sendable, Hashable {
    case corrupted
    case duplicated
    case delayed
    /// Sent after the reply that followed it (`reorder@`).
    case reordered
    /// Cut short (`truncate@`).
    case truncated
}
