/// Joins decoded frame lines into packets and checks their length and CRC: the second half of
/// `SMPSerialDecoder`, following Zephyr's receiver (`serial_util.c`, `mcumgr_serial_process_frag`)
/// rule by rule:
///
/// - a start line begins a new packet, dropping any packet in progress; its first two bytes are
///   the total length (packet + CRC), which must be there (`mcumgr_serial_extract_len`);
/// - a continuation line with no packet in progress is dropped;
/// - each line is decoded on its own (`mcumgr_serial_decode_frag`), and a line that is not base64
///   drops the packet;
/// - fewer bytes than the total: wait; more: drop; exactly the total: the CRC-16/XMODEM of the
///   packet must equal the last two bytes (Zephyr runs the CRC over both and expects 0, the same
///   test), and the packet is delivered without them.
///
/// Beyond Zephyr: a total below the CRC's 2 bytes is refused (Zephyr would accept 0 and then
/// shorten the buffer by 2), and so is a packet larger than `maximumPacketSize`, before any of it
/// is held, so memory stays bounded whatever the length field says.
struct SMPSerialReassembler: Sendable {
    let maximumPacketSize: Int

    /// The total length announced by the start line, while a packet is in progress.
    private var total: Int?
    /// Packet bytes then CRC bytes received so far.
    private var received: [UInt8] = []

    init(maximumPacketSize: Int) {
        self.maximumPacketSize = maximumPacketSize
    }

    var bufferedByteCount: Int { received.count }
    var isIdle: Bool { total == nil }

    /// Forgets the packet in progress (one of its lines was lost).
    mutating func reset() {
        total = nil
        received.removeAll(keepingCapacity: true)
    }

    /// Takes one frame line's characters; returns the packet it completes, a drop, or nothing
    /// (more lines are needed). A start line that interrupts a packet returns that drop first.
    mutating func accept(_ marker: SMPSerialMarker, _ characters: [UInt8]) -> [SMPSerialEvent] {
        switch marker {
        case .start:
            var events: [SMPSerialEvent] = []
            if let total {
                events.append(.dropped(.interruptedByStart(received: received.count, total: total)))
                reset()
            }
            events.append(contentsOf: start(characters))
            return events
        case .continuation:
            guard total != nil else { return [.dropped(.continuationWithoutStart)] }
            guard let bytes = SMPSerialBase64.decode(characters[...]) else {
                reset()
                return [.dropped(.invalidBase64(.continuation))]
            }
            return append(bytes[...])
        }
    }

    private mutating func start(_ characters: [UInt8]) -> [SMPSerialEvent] {
        guard let bytes = SMPSerialBase64.decode(characters[...]) else {
            return [.dropped(.invalidBase64(.start))]
        }
        guard bytes.count >= 2 else { return [.dropped(.missingLength)] }
        let announced = Int(bytes[0]) << 8 | Int(bytes[1])
        guard announced >= 2 else { return [.dropped(.totalLengthTooShort(announced))] }
        guard announced - 2 <= maximumPacketSize else {
            return [.dropped(.packetTooLarge(size: announced - 2, maximum: maximumPacketSize))]
        }
        total = announced
        return append(bytes[2...])
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) -> [SMPSerialEvent] {
        guard let total else { return [] }
        guard received.count + bytes.count <= total else {
            let arrived = received.count + bytes.count
            reset()
            return [.dropped(.longerThanAnnounced(total: total, received: arrived))]
        }
        received.append(contentsOf: bytes)
        guard received.count == total else { return [] }

        defer { reset() }
        let packet = Array(received[..<(total - 2)])
        let sent = UInt16(received[total - 2]) << 8 | UInt16(received[total - 1])
        let computed = CRC16XMODEM.checksum(packet)
        guard sent == computed else { return [.dropped(.crcMismatch(received: sent, computed: computed))] }
        return [.packet(packet)]
    }
}
