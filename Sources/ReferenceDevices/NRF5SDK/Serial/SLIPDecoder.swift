/// slip.c `slip_decode_add_byte` and its `slip_t`, byte by byte, into a buffer the transport owns
/// (a block of its receive pool). Quirks kept as the SDK has them:
/// - END ends a frame even when nothing came before it: a lone END is an empty frame.
/// - The decoder does not clear its index when a frame ends; the transport does, after it gets a new
///   buffer. Without one, the next frame lands behind the last.
/// - ESC followed by anything but ESC_END or ESC_ESC (END included) throws the frame away up to
///   the next END, which ends nothing.
/// - The length check comes first, for every byte: once `bufferLength` bytes are stored, every byte
///   (END too) is refused with NO_MEM and the index never goes back to 0. The decoder is stuck until
///   the device resets.
struct SLIPDecoder: Sendable, Hashable {
    /// `slip_read_state_t`.
    enum State: Sendable, Hashable {
        case decoding
        case escapeReceived
        case clearingInvalidPacket
    }

    /// What `slip_decode_add_byte` returns.
    enum Result: Sendable, Hashable {
        /// `NRF_SUCCESS`: a frame of `currentIndex` bytes is in the buffer.
        case frameEnded
        /// `NRF_ERROR_BUSY`: keep going.
        case busy
        /// `NRF_ERROR_NO_MEM`: the buffer is full; the byte is lost.
        case noMemory
        /// `NRF_ERROR_INVALID_DATA`: a bad escape; the frame is dropped up to the next END.
        case invalidData
    }

    /// `buffer_len`: how many decoded bytes the buffer takes.
    let bufferLength: Int
    var state = State.decoding
    /// `current_index`.
    var currentIndex = 0

    init(bufferLength: Int) { self.bufferLength = bufferLength }

    mutating func add(_ byte: UInt8, into buffer: inout [UInt8]) -> Result {
        guard currentIndex != bufferLength else { return .noMemory }
        switch state {
        case .decoding:
            switch byte {
            case SLIP.end: return .frameEnded
            case SLIP.escape: state = .escapeReceived
            default: store(byte, into: &buffer)
            }
        case .escapeReceived:
            switch byte {
            case SLIP.escapedEnd:
                store(SLIP.end, into: &buffer)
                state = .decoding
            case SLIP.escapedEscape:
                store(SLIP.escape, into: &buffer)
                state = .decoding
            default:
                state = .clearingInvalidPacket
                return .invalidData
            }
        case .clearingInvalidPacket:
            if byte == SLIP.end {
                state = .decoding
                currentIndex = 0
            }
        }
        return .busy
    }

    /// The transport starts a new frame in a new buffer (on_rx_complete after `nrf_balloc_alloc`).
    mutating func restart() {
        currentIndex = 0
        state = .decoding
    }

    private mutating func store(_ byte: UInt8, into buffer: inout [UInt8]) {
        if currentIndex < buffer.count { buffer[currentIndex] = byte }
        currentIndex += 1
    }
}
