/// Something the server threw away without a reply. Reported as an action so tests and `dfu sim
/// --verbose` can see why a request went unanswered; the central never learns it.
public enum SMPDrop: Sendable, Hashable, CustomStringConvertible {
    /// A write arrived while every buffer was in use.
    case noFreeBuffer(writeSize: Int)
    /// Reassembly: the first fragment of a packet is shorter than the 8-byte header.
    case fragmentShorterThanHeader(size: Int)
    /// Reassembly: the header announces a packet larger than a buffer.
    case packetTooLarge(declared: Int, limit: Int)
    /// Reassembly: a fragment runs past the end the header announced; the whole packet is dropped.
    case fragmentOverflow(expected: Int, received: Int)
    /// One packet per write: a write larger than a buffer.
    case writeTooLarge(size: Int, limit: Int)
    /// A buffer whose remaining bytes cannot hold a header (no reply can be addressed).
    case truncatedHeader(size: Int)
    /// Requests of a link that went away before the work queue reached them (smp_bt.c
    /// `disconnected` removes them from the FIFO).
    case discardedOnDisconnect(count: Int)
    /// A request was processed but the link that sent it is gone, so its reply is not sent.
    case responseLostOnDisconnect
    /// A `silent@` or `outage@` fault holds: the request never reached the device.
    case deaf

    public var description: String {
        switch self {
        case .noFreeBuffer(let size):
            return "dropped a \(size)-byte write: no free SMP buffer"
        case .fragmentShorterThanHeader(let size):
            return "dropped a \(size)-byte first fragment: shorter than the SMP header"
        case .packetTooLarge(let declared, let limit):
            return "dropped a packet announcing \(declared) bytes: buffers hold \(limit)"
        case .fragmentOverflow(let expected, let received):
            return "dropped a packet: a fragment brought it to \(received) bytes, \(expected) expected"
        case .writeTooLarge(let size, let limit):
            return "dropped a \(size)-byte write: buffers hold \(limit) and reassembly is off"
        case .truncatedHeader(let size):
            return "dropped \(size) trailing bytes: not a whole SMP header"
        case .discardedOnDisconnect(let count):
            return "discarded \(count) queued request(s) of a link that went away"
        case .deaf:
            return "lost a request: the device hears nothing (silent or outage fault)"
        case .responseLostOnDisconnect:
            return "processed a request but its link is gone: reply not sent"
        }
    }
}
