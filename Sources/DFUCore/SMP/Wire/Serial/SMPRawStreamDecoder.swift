/// Splits a raw SMP byte stream into packets: Zephyr's raw UART transport
/// (`CONFIG_MCUMGR_TRANSPORT_RAW_UART`, `smp_raw_uart.c`) and MCUboot's
/// `MCUBOOT_SERIAL_RAW_PROTOCOL`. Sans-I/O, fed any split of the stream.
///
/// What the sources do: there is no framing at all. The device writes the bare packet, header
/// then body (`uart_mcumgr.c`, `uart_mcumgr_send` skips `mcumgr_serial_tx_pkt` in raw mode;
/// `boot_serial.c`, `boot_serial_output`), with no marker, base64 or CRC; the smp_transport.rst
/// "Raw UART/serial" section says it cannot share the UART with shell or log output. The receiver
/// takes the header's length (bytes 2–3, big-endian) and waits for `8 + length` bytes
/// (`serial_util.c`, `mcumgr_serial_process_frag`, raw branch); it drops everything held when the
/// length exceeds its buffer or the op is undefined, and a timer clears a packet that stalls
/// (`CONFIG_MCUMGR_TRANSPORT_RAW_UART_INPUT_TIMEOUT`).
///
/// Our resync rule: the bytes at the front must decode as an `SMPHeader` (reserved bits clear, a
/// defined op) with no flags, a defined version (v1 or v2) and a size of at most
/// `maximumPacketSize`; if they do not, one byte is skipped and the next position is tried, so a
/// packet after noise is found at its own first byte (Zephyr, fed a byte at a time, discards the
/// 8 it looked at). Flags and version are checked beyond Zephyr's receiver, which looks at the op
/// only, because every packet the other side writes passes them: Zephyr's responses
/// (`smp.c`, `smp_make_rsp_hdr`: flags 0, version capped at 2), MCUboot's (`boot_serial_output`:
/// flags 0), smpclient's requests; without them a newline before a packet (0x0A, a valid first
/// byte) is taken for a header. Nothing checks a body, so noise that still looks like a header
/// swallows bytes until its length is reached: the caller bounds that with `maximumPacketSize`
/// and calls `reset()` when the line stays quiet mid-packet, as Zephyr's timer does.
public struct SMPRawStreamDecoder: Sendable {
    /// Largest packet (header and body) accepted.
    public let maximumPacketSize: Int

    /// Bytes from the first position that may start a packet.
    private var buffer: [UInt8] = []

    /// `maximumPacketSize` is clamped to 8…65 543 (a header and the largest body it can announce).
    public init(maximumPacketSize: Int = SMPHeader.size + Int(UInt16.max)) {
        self.maximumPacketSize = min(max(maximumPacketSize, SMPHeader.size), SMPHeader.size + Int(UInt16.max))
    }

    /// Bytes of an incomplete packet (or of a header still too short to judge).
    public var bufferedByteCount: Int { buffer.count }

    public var isIdle: Bool { buffer.isEmpty }

    /// Forgets the partial packet; returns the bytes dropped (empty when idle).
    @discardableResult
    public mutating func reset() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    /// Feeds bytes as read; returns the packets and skipped runs they complete, in stream order.
    public mutating func receive(_ bytes: some Sequence<UInt8>) -> [SMPRawStreamEvent] {
        buffer.append(contentsOf: bytes)
        var events: [SMPRawStreamEvent] = []
        var skipped: [UInt8] = []
        var skipReason: SMPRawSkipReason?
        var start = 0

        func flushSkipped() {
            if let reason = skipReason, !skipped.isEmpty {
                events.append(.skipped(skipped, reason))
            }
            skipped.removeAll()
            skipReason = nil
        }

        while buffer.count - start >= SMPHeader.size {
            let header: SMPHeader
            do {
                header = try SMPHeader(decoding: buffer[start..<(start + SMPHeader.size)])
            } catch {
                if skipReason == nil { skipReason = .invalidHeader(error) }
                skipped.append(buffer[start])
                start += 1
                continue
            }
            if let reason = Self.implausible(header) {
                if skipReason == nil { skipReason = reason }
                skipped.append(buffer[start])
                start += 1
                continue
            }
            let size = SMPHeader.size + Int(header.length)
            guard size <= maximumPacketSize else {
                if skipReason == nil { skipReason = .packetTooLarge(size: size, maximum: maximumPacketSize) }
                skipped.append(buffer[start])
                start += 1
                continue
            }
            flushSkipped()
            guard buffer.count - start >= size else { break }
            events.append(.packet(Array(buffer[start..<(start + size)])))
            start += size
        }
        flushSkipped()
        buffer.removeFirst(start)
        return events
    }

    /// Why a well-formed header cannot be one the other side wrote, if it cannot.
    private static func implausible(_ header: SMPHeader) -> SMPRawSkipReason? {
        if header.flags != 0 { return .unexpectedFlags(header.flags) }
        if !header.version.isDefined { return .reservedVersion(header.version.rawValue) }
        return nil
    }
}
