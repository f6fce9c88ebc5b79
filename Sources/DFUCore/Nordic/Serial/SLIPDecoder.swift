/// Splits a byte stream into SLIP frames without doing any I/O: the caller feeds whatever chunks
/// the line delivers, in any sizes, and gets back the frames and drops those chunks complete.
///
/// The states follow `slip_decode_add_byte` (SDK `slip.c`) and pc-nrfutil's `Slip.decode_add_byte`:
/// decoding, escape received, and clearing an invalid frame up to its END. Two things differ, on
/// purpose. An empty frame (END right after END) is skipped, since the bootloader never sends one
/// (`response_send` in `nrf_dfu_serial.c` writes at least 3 bytes). ESC followed by END drops the
/// frame but lets that END close it; both Nordic decoders would also swallow the next, valid frame.
/// A frame may hold at most `maximumFrameSize` decoded bytes, so a line that never sends END
/// cannot make the decoder buffer without bound.
public struct SLIPDecoder: Sendable {
    /// What one fed chunk produced, in stream order.
    public enum Event: Sendable, Hashable {
        case frame([UInt8])
        case dropped(SLIPFrameError)
    }

    private enum State: Sendable {
        case decoding
        case escapeReceived
        /// Skipping a dropped frame's bytes up to its END.
        case clearing
    }

    /// Largest frame accepted, in decoded bytes (`NordicSerialLimits` derives the Nordic ones).
    public let maximumFrameSize: Int

    private var state: State = .decoding
    private var frame: [UInt8] = []

    public init(maximumFrameSize: Int) {
        self.maximumFrameSize = maximumFrameSize
    }

    /// Decoded bytes of the unfinished frame held so far.
    public var bufferedByteCount: Int { frame.count }

    /// True between frames: nothing held, no escape or drop pending.
    public var isIdle: Bool { state == .decoding && frame.isEmpty }

    /// Forgets any unfinished frame (e.g. when the line is reopened).
    public mutating func reset() {
        state = .decoding
        frame.removeAll(keepingCapacity: true)
    }

    /// Decodes one chunk; returns every frame it completed and every drop it detected.
    public mutating func receive(_ chunk: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in chunk {
            if let event = step(byte) { events.append(event) }
        }
        return events
    }

    private mutating func step(_ byte: UInt8) -> Event? {
        switch state {
        case .clearing:
            if byte == SLIPByte.end { state = .decoding }
            return nil
        case .escapeReceived:
            switch byte {
            case SLIPByte.escapedEnd: return append(SLIPByte.end)
            case SLIPByte.escapedEscape: return append(SLIPByte.escape)
            case SLIPByte.end:
                let count = frame.count
                reset()
                return .dropped(.escapeAtFrameEnd(decodedCount: count))
            default:
                return drop(.invalidEscape(byte, decodedCount: frame.count))
            }
        case .decoding:
            switch byte {
            case SLIPByte.end:
                guard !frame.isEmpty else { return nil }
                let completed = frame
                frame = []
                return .frame(completed)
            case SLIPByte.escape:
                state = .escapeReceived
                return nil
            default:
                return append(byte)
            }
        }
    }

    private mutating func append(_ byte: UInt8) -> Event? {
        guard frame.count < maximumFrameSize else { return drop(.frameTooLarge(maximum: maximumFrameSize)) }
        state = .decoding
        frame.append(byte)
        return nil
    }

    private mutating func drop(_ reason: SLIPFrameError) -> Event {
        frame.removeAll(keepingCapacity: true)
        state = .clearing
        return .dropped(reason)
    }
}
