/// Why protobuf bytes could not be read. Offsets are into the message being read, for the user's bug
/// report; no message bytes are kept.
public enum ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes end inside a field (key, varint, length-delimited value or fixed value).
    case truncated(offset: Int)
    /// A varint longer than 10 bytes or above 2^64 - 1.
    case varintOverflow(offset: Int)
    /// Wire type 3 or 4 (groups, never used by dfu-cc.proto), or 6 and 7 (undefined).
    case unsupportedWireType(Int, offset: Int)
    /// Field number 0, which protobuf forbids.
    case invalidFieldNumber(offset: Int)

    public var description: String {
        switch self {
        case .truncated(let offset): return "it ends inside a field at byte \(offset)"
        case .varintOverflow(let offset): return "the varint at byte \(offset) overflows 64 bits"
        case .unsupportedWireType(let type, let offset): return "wire type \(type) at byte \(offset) is a group or undefined"
        case .invalidFieldNumber(let offset): return "field number 0 at byte \(offset)"
        }
    }
}
