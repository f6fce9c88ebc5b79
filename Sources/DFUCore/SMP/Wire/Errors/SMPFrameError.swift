/// Why bytes could not be framed as, or turned into, an SMP packet. Apart from `bodyTooLarge` and
/// `invalidWriteSize` (our caller's mistake), these mean the peer sent something malformed.
public enum SMPFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than 8 bytes where a whole header was required.
    case truncatedHeader(available: Int)
    /// Header bits 7–5 must be zero.
    case reservedHeaderBits(firstByte: UInt8)
    /// Op values 4–7 are undefined.
    case undefinedOp(UInt8)
    /// The header announces a packet (header + body) larger than the configured maximum.
    case frameTooLarge(declared: Int, maximum: Int)
    /// More bytes arrived than the header announced: the tail of a packet and the start of another
    /// in one write or notification, or a corrupt length.
    case bytesBeyondFrameEnd(expected: Int, received: Int)
    /// A whole-frame decode got a different number of body bytes than the header announces.
    case lengthMismatch(declared: Int, actual: Int)
    /// The body is not valid CBOR.
    case invalidBody(CBORError)
    /// The body is valid CBOR but not a map; SMP groups below 64 always use a map.
    case bodyNotAMap(found: String)
    /// The encoded body does not fit the header's 16-bit length field.
    case bodyTooLarge(length: Int)
    /// A write size below the 8-byte header: the first fragment must carry the whole header
    /// (Zephyr's reassembly drops a packet whose first fragment is shorter).
    case invalidWriteSize(Int)

    public var description: String {
        switch self {
        case .truncatedHeader(let available):
            return "SMP header needs 8 bytes but only \(available) are there"
        case .reservedHeaderBits(let firstByte):
            return "SMP header byte 0 is 0x\(cborByteHex(firstByte)): its reserved bits 7–5 are set"
        case .undefinedOp(let op):
            return "SMP header carries undefined op \(op)"
        case .frameTooLarge(let declared, let maximum):
            return "SMP packet announces \(declared) bytes, more than the maximum of \(maximum)"
        case .bytesBeyondFrameEnd(let expected, let received):
            return "SMP packet should be \(expected) bytes but \(received) arrived"
        case .lengthMismatch(let declared, let actual):
            return "SMP header announces a \(declared)-byte body but \(actual) bytes follow it"
        case .invalidBody(let error):
            return "SMP body is not valid CBOR: \(error)"
        case .bodyNotAMap(let found):
            return "SMP body is a \(found), not a map"
        case .bodyTooLarge(let length):
            return "SMP body of \(length) bytes does not fit the 16-bit length field"
        case .invalidWriteSize(let size):
            return "write size \(size) is smaller than the 8-byte SMP header"
        }
    }
}
