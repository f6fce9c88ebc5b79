/// Zephyr's SMP-over-Bluetooth reassembly (smp_reassembly.c `smp_reassembly_collect`, smp_bt.c
/// `smp_bt_chr_write`), buffer allocation included:
/// - the first fragment must hold the 8-byte header; the packet (header + `len`) and the fragment
///   must fit a buffer, and the fragment must not be longer than the packet;
/// - the buffer is taken from the pool when the first fragment arrives; none free → write lost;
/// - a later fragment that runs past the announced end drops the whole packet.
///
/// Unlike the client's `SMPFrameAssembler`, nothing but the length field is looked at here: Zephyr
/// checks the rest of the header only when the work queue processes the packet.
struct SMPReassembler: Sendable {
    enum Outcome: Sendable, Hashable {
        case collecting
        /// A whole packet; its buffer now belongs to the caller (still counted in the pool).
        case complete([UInt8])
        case dropped(SMPDrop)
    }

    private var buffer: [UInt8] = []
    /// Bytes still expected; nil when no packet is being collected.
    private var remaining: Int?

    var isCollecting: Bool { remaining != nil }

    mutating func collect(_ fragment: [UInt8], bufferSize: Int, pool: inout BufferPool) -> Outcome {
        if remaining == nil {
            guard fragment.count >= 8 else { return .dropped(.fragmentShorterThanHeader(size: fragment.count)) }
            let expected = 8 + (Int(fragment[2]) << 8 | Int(fragment[3]))
            guard fragment.count <= bufferSize, expected <= bufferSize else {
                return .dropped(.packetTooLarge(declared: expected, limit: bufferSize))
            }
            guard fragment.count <= expected else {
                return .dropped(.fragmentOverflow(expected: expected, received: fragment.count))
            }
            guard pool.take() else { return .dropped(.noFreeBuffer(writeSize: fragment.count)) }
            buffer = []
            buffer.reserveCapacity(expected)
            remaining = expected
        }
        guard let left = remaining, fragment.count <= left else {
            let expected = buffer.count + (remaining ?? 0)
            let received = buffer.count + fragment.count
            drop(pool: &pool)
            return .dropped(.fragmentOverflow(expected: expected, received: received))
        }
        buffer += fragment
        remaining = left - fragment.count
        guard remaining == 0 else { return .collecting }
        let packet = buffer
        buffer = []
        remaining = nil
        return .complete(packet)
    }

    /// Drops a partly collected packet and frees its buffer (notifications turned off, link lost).
    mutating func drop(pool: inout BufferPool) {
        guard remaining != nil else { return }
        pool.give()
        buffer = []
        remaining = nil
    }
}
