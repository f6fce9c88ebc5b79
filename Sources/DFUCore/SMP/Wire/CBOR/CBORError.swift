/// Why bytes were not accepted as CBOR. Every case says what was wrong and at which byte offset
/// (counted from the start of the input given to the decoder) so a hostile or broken reply can be
/// reported precisely. All of these mean the peer sent something wrong, never that we have a bug.
public enum CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Item kinds outside the subset we accept.
    public enum Unsupported: Sendable, Hashable {
        case float
        case tag
        case undefined
        /// Simple values other than false, true, null and undefined.
        case simpleValue
    }

    /// The input is longer than `Limits.maxSize`; nothing was decoded.
    case inputTooLarge(size: Int, limit: Int)
    /// The input ends inside the item that starts at `offset`.
    case truncated(offset: Int)
    /// A string length or element count at `offset` promises more than the bytes that remain.
    case lengthExceedsInput(offset: Int, length: UInt64, remaining: Int)
    /// Additional-information values 28–30 are reserved by RFC 8949.
    case reservedAdditionalInfo(offset: Int, initialByte: UInt8)
    /// A float, tag, undefined or other simple value at `offset`.
    case unsupported(Unsupported, offset: Int)
    /// Indefinite length on a major type that cannot have one (integers, tags).
    case invalidIndefiniteLength(offset: Int, majorType: UInt8)
    /// A "break" (0xFF) where no indefinite-length item is open.
    case unexpectedBreak(offset: Int)
    /// A chunk of an indefinite-length string that is not a definite string of the same type.
    case invalidChunk(offset: Int)
    /// A text string whose bytes are not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// An indefinite-length map closed after a key with no value.
    case missingMapValue(offset: Int)
    /// The same key twice in one map (RFC 8949 §5.6 calls such a map invalid; zcbor refuses it too).
    case duplicateMapKey(offset: Int, key: String)
    /// More nested arrays/maps than `Limits.maxDepth`.
    case depthLimitExceeded(offset: Int, limit: Int)
    /// More data items than `Limits.maxItems`.
    case itemLimitExceeded(offset: Int, limit: Int)
    /// Bytes left after the top-level item.
    case trailingBytes(offset: Int, count: Int)

    public var description: String {
        switch self {
        case .inputTooLarge(let size, let limit):
            return "CBOR input of \(size) bytes exceeds the limit of \(limit) bytes"
        case .truncated(let offset):
            return "CBOR input ends inside the item at byte \(offset)"
        case .lengthExceedsInput(let offset, let length, let remaining):
            return "CBOR item at byte \(offset) declares length \(length) but only \(remaining) bytes remain"
        case .reservedAdditionalInfo(let offset, let initialByte):
            return "CBOR item at byte \(offset) uses reserved initial byte 0x\(cborByteHex(initialByte))"
        case .unsupported(let kind, let offset):
            let name: String
            switch kind {
            case .float: name = "a floating-point number"
            case .tag: name = "a tag"
            case .undefined: name = "undefined"
            case .simpleValue: name = "an unassigned simple value"
            }
            return "CBOR item at byte \(offset) is \(name), which SMP messages do not use"
        case .invalidIndefiniteLength(let offset, let majorType):
            return "CBOR item at byte \(offset) has indefinite length on major type \(majorType), which cannot have one"
        case .unexpectedBreak(let offset):
            return "CBOR break byte at \(offset) closes nothing"
        case .invalidChunk(let offset):
            return "CBOR indefinite-length string has an invalid chunk at byte \(offset)"
        case .invalidUTF8(let offset):
            return "CBOR text string at byte \(offset) is not valid UTF-8"
        case .missingMapValue(let offset):
            return "CBOR indefinite-length map ends at byte \(offset) after a key without a value"
        case .duplicateMapKey(let offset, let key):
            return "CBOR map repeats key \(key) at byte \(offset)"
        case .depthLimitExceeded(let offset, let limit):
            return "CBOR nesting exceeds \(limit) levels at byte \(offset)"
        case .itemLimitExceeded(let offset, let limit):
            return "CBOR input has more than \(limit) items (at byte \(offset))"
        case .trailingBytes(let offset, let count):
            return "\(count) unexpected bytes after the CBOR item, from byte \(offset)"
        }
    }
}
