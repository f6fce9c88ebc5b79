/// Why a packet could not be framed for a console line. Both are the caller's mistake: nothing the
/// device sent is involved.
public enum SMPSerialEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 16-bit total length counts the packet and its 2-byte CRC, so 65 533 bytes is the most.
    case packetTooLarge(size: Int, maximum: Int)
    /// A line must hold the marker, one base64 group and the newline.
    case lineLengthTooSmall(Int, minimum: Int)

    public var description: String {
        switch self {
        case .packetTooLarge(let size, let maximum):
            return "an SMP packet of \(size) bytes does not fit serial framing (at most \(maximum) bytes)"
        case .lineLengthTooSmall(let length, let minimum):
            return "a serial line of \(length) bytes cannot carry SMP framing (at least \(minimum) bytes)"
        }
    }
}
