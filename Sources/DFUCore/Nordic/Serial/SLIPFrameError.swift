import Transport

/// Why the SLIP decoder dropped a frame. The decoder reports each one once, when it is detected,
/// and carries on with the next frame.
public enum SLIPFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ESC followed by a byte other than ESC_END or ESC_ESC (or END). The frame's remaining bytes
    /// are skipped up to its END, as `slip_decode_add_byte` does in its clearing state.
    case invalidEscape(UInt8, decodedCount: Int)
    /// ESC immediately followed by END. The END still closes the frame, so the next frame is kept.
    case escapeAtFrameEnd(decodedCount: Int)
    /// The frame grew past `maximum` decoded bytes; the rest of it is skipped up to its END.
    case frameTooLarge(maximum: Int)

    public var description: String {
        switch self {
        case .invalidEscape(let byte, let count):
            return "a SLIP frame with the invalid escape 0xDB 0x\(hexDigits(byte, width: 2)) after \(count) bytes"
        case .escapeAtFrameEnd(let count):
            return "a SLIP frame ending in an unfinished escape after \(count) bytes"
        case .frameTooLarge(let maximum):
            return "a SLIP frame longer than \(maximum) bytes"
        }
    }
}
