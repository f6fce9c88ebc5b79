import Transport

/// Who gets each reply of a virtual device served over UDP.
///
/// Zephyr's smp_udp.c keeps the sender's address with every received buffer and answers to it. Our
/// `VirtualDevice` returns replies without saying which request they answer, but a reply carries
/// the group, command and sequence number of its request (`smp_make_rsp_hdr`). So each request's
/// key is remembered with its sender, and a reply goes to the LATEST sender of a request with the
/// same key. "Latest" rather than "oldest waiting" because some requests are never answered (no free
/// buffer, a stall fault, a reset that drops the queue): a first-in-first-out table would keep such
/// stale entries and send the next client's reply to someone long gone. Two clients that send the
/// same key at the same moment could be mixed up; clients that take turns, the case the server is
/// for, cannot.
///
/// A value type with no I/O: the server feeds it datagrams and asks it for destinations.
struct ReplyRoutes: Sendable {
    /// Group (2 bytes), sequence and command: bytes 4–7 of an SMP header, the same in a request
    /// and its reply.
    struct Key: Hashable, Sendable {
        let group: UInt16
        let sequence: UInt8
        let command: UInt8

        /// The key of the header at `offset`; nil when fewer than 8 bytes are left.
        init?(_ bytes: [UInt8], at offset: Int = 0) {
            guard offset >= 0, bytes.count - offset >= Self.headerSize else { return nil }
            group = UInt16(bytes[offset + 4]) << 8 | UInt16(bytes[offset + 5])
            sequence = bytes[offset + 6]
            command = bytes[offset + 7]
        }

        static let headerSize = 8
    }

    /// More keys than any client keeps in flight (sequence numbers are one byte); the table is
    /// emptied when it grows past this, so a long-running server cannot grow without bound.
    static let capacity = 4096

    private var senders: [Key: SocketAddress] = [:]
    /// Whoever sent the last datagram: the destination of a reply whose key nobody sent (only a
    /// reply to bytes that held no whole header, which the device does not send).
    private(set) var latestSender: SocketAddress?

    /// Remembers `sender` for every SMP header in `datagram` (a buffer may hold several packets,
    /// each answered separately; the walk stops at the first header that does not fit).
    mutating func record(_ datagram: [UInt8], from sender: SocketAddress) {
        latestSender = sender
        if senders.count >= Self.capacity { senders.removeAll(keepingCapacity: true) }
        var offset = 0
        while let key = Key(datagram, at: offset) {
            senders[key] = sender
            let length = Int(datagram[offset + 2]) << 8 | Int(datagram[offset + 3])
            offset += Key.headerSize + length
        }
    }

    /// Where `reply` goes; nil when nobody has sent anything yet.
    func destination(of reply: [UInt8]) -> SocketAddress? {
        if let key = Key(reply), let sender = senders[key] { return sender }
        return latestSender
    }
}
