/// Why the byte at the front of a raw stream could not start a packet.
public enum SMPRawSkipReason: Sendable, Hashable, CustomStringConvertible {
    /// The 8 bytes there are not a valid SMP header (reserved bits set, undefined op).
    case invalidHeader(SMPFrameError)
    /// A well-formed header with flags set: no flag is defined, and no sender sets one.
    case unexpectedFlags(UInt8)
    /// A well-formed header of a reserved version (2 or 3, i.e. "v3"/"v4"), which no sender writes.
    case reservedVersion(UInt8)
    /// The header there announces more than the decoder accepts.
    case packetTooLarge(size: Int, maximum: Int)

    public var description: String {
        switch self {
        case .invalidHeader(let error): return "not an SMP header: \(error)"
        case .unexpectedFlags(let flags): return "SMP header with flags 0x\(String(flags, radix: 16)) set"
        case .reservedVersion(let raw): return "SMP header of reserved version \(raw)"
        case .packetTooLarge(let size, let maximum):
            return "SMP header announces \(size) bytes, more than the maximum of \(maximum)"
        }
    }
}
