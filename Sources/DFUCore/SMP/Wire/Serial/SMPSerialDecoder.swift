/// Decodes SMP packets from a console byte stream shared with shell and log output (Zephyr's UART
/// and shell transports, MCUboot's serial recovery). Sans-I/O: `receive` takes whatever a read
/// returned, split anywhere, and returns what those bytes completed, in order.
///
/// Lines are found by `SMPSerialLineScanner` (markers anywhere, text between them) and joined by
/// `SMPSerialReassembler` (length, CRC, Zephyr's drop rules). Anything garbled is dropped with a
/// reason and decoding resumes at the next start marker; nothing traps. Memory is bounded by the
/// three limits: one packet, one line, one piece of text.
public struct SMPSerialDecoder: Sendable {
    /// Largest packet (header and body, without length and CRC) accepted.
    public var maximumPacketSize: Int { reassembler.maximumPacketSize }
    /// Longest frame line accepted, marker and newline included.
    public var maximumLineLength: Int { scanner.maximumLineLength }
    /// Longest text delivered in one `.text` event.
    public var maximumTextChunk: Int { scanner.maximumTextChunk }

    private var scanner: SMPSerialLineScanner
    private var reassembler: SMPSerialReassembler

    /// - Parameters:
    ///   - maximumPacketSize: clamped to what the 16-bit total length can announce (65 533). The
    ///     client can lower it to the device's `buf_size`.
    ///   - maximumLineLength: nil accepts a line long enough to carry the largest packet whole.
    ///     Zephyr writes lines of at most 127 bytes, but MCUboot's serial recovery before v1.10
    ///     (mcu-tools/mcuboot f5e7753b, 2022) wrote each answer as one line, so 127 is not
    ///     enforced by default. At least `SMPSerialFraming.minimumLineLength`.
    ///   - maximumTextChunk: at least 1.
    public init(maximumPacketSize: Int = SMPSerialFraming.maximumPacketSize, maximumLineLength: Int? = nil,
                maximumTextChunk: Int = 1024) {
        let packetLimit = min(max(maximumPacketSize, 0), SMPSerialFraming.maximumPacketSize)
        // Marker, the whole framed packet in base64, "\r\n".
        let wholePacketLine = 2 + SMPSerialBase64.encodedCount(packetLimit + SMPSerialFraming.overhead) + 2
        let lineLimit = max(maximumLineLength ?? wholePacketLine, SMPSerialFraming.minimumLineLength)
        scanner = SMPSerialLineScanner(maximumLineLength: lineLimit, maximumTextChunk: max(maximumTextChunk, 1))
        reassembler = SMPSerialReassembler(maximumPacketSize: packetLimit)
    }

    /// Bytes held for an incomplete line, text or packet.
    public var bufferedByteCount: Int { scanner.bufferedByteCount + reassembler.bufferedByteCount }

    /// True when nothing partial is held.
    public var isIdle: Bool { scanner.isIdle && reassembler.isIdle }

    /// Feeds bytes as read; returns the packets, text and drops they complete, in stream order.
    public mutating func receive(_ bytes: some Sequence<UInt8>) -> [SMPSerialEvent] {
        var events: [SMPSerialEvent] = []
        for output in scanner.scan(bytes) {
            switch output {
            case .text(let text):
                events.append(.text(text))
            case .line(let marker, let characters):
                events.append(contentsOf: reassembler.accept(marker, characters))
            case .lineTooLong(let limit):
                reassembler.reset()
                events.append(.dropped(.lineTooLong(limit: limit)))
            case .unterminatedLine:
                reassembler.reset()
                events.append(.dropped(.unterminatedLine))
            }
        }
        return events
    }

    /// Forgets everything partial: a reopened port, or a line that has been quiet too long in the
    /// middle of a packet (Zephyr's shell transport has such a timeout,
    /// `CONFIG_MCUMGR_TRANSPORT_SHELL_INPUT_TIMEOUT`).
    public mutating func reset() {
        scanner.reset()
        reassembler.reset()
    }
}
