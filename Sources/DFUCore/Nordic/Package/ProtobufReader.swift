/// A minimal reader of protobuf wire format, enough for dfu-cc.proto: it walks the fields of one message
/// and hands out values and byte ranges, checking every length against what is left. It never traps on
/// any input; a sub-message is read with a new reader over its range.
struct ProtobufReader: Sendable {
    /// One field: its number and its value by wire type.
    struct Field: Sendable, Equatable {
        enum Value: Sendable, Equatable {
            case varint(UInt64)
            case fixed64(UInt64)
            /// Range into the bytes given to the reader (not relative to the message).
            case lengthDelimited(Range<Int>)
            case fixed32(UInt32)
        }

        var number: UInt64
        var value: Value
        /// Where the field's key starts, for messages.
        var offset: Int
    }

    private let bytes: [UInt8]
    private let end: Int
    private var position: Int

    /// Reads the message in `bytes[range]`; `range` must lie inside `bytes` (it is clamped if not).
    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        let whole = 0 ..< bytes.count
        let range = (range ?? whole).clamped(to: whole)
        position = range.lowerBound
        end = range.upperBound
    }

    /// The next field, or nil at the end of the message.
    mutating func next() throws(ProtobufError) -> Field? {
        guard position < end else { return nil }
        let start = position
        let key = try varint()
        let number = key >> 3
        guard number != 0 else { throw .invalidFieldNumber(offset: start) }
        let value: Field.Value
        switch key & 7 {
        case 0:
            value = .varint(try varint())
        case 1:
            value = .fixed64(try fixed(8))
        case 2:
            let lengthOffset = position
            let length = try varint()
            guard length <= UInt64(end - position) else { throw .truncated(offset: lengthOffset) }
            let range = position ..< position + Int(length)
            position = range.upperBound
            value = .lengthDelimited(range)
        case 5:
            value = .fixed32(UInt32(truncatingIfNeeded: try fixed(4)))
        case let type:
            throw .unsupportedWireType(Int(type), offset: start)
        }
        return Field(number: number, value: value, offset: start)
    }

    /// Base-128 varint, at most 10 bytes, the 10th at most 1 (2^64 - 1 is the largest value).
    mutating func varint() throws(ProtobufError) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        for index in 0 ..< 10 {
            guard position < end else { throw .truncated(offset: start) }
            let byte = bytes[position]
            position += 1
            if index == 9 && byte > 1 { throw .varintOverflow(offset: start) }
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 { return value }
        }
        throw .varintOverflow(offset: start)
    }

    private mutating func fixed(_ count: Int) throws(ProtobufError) -> UInt64 {
        guard end - position >= count else { throw .truncated(offset: position) }
        var value: UInt64 = 0
        for index in (position ..< position + count).reversed() { value = value << 8 | UInt64(bytes[index]) }
        position += count
        return value
    }

    /// Every varint in a packed repeated field's range.
    static func packedVarints(_ bytes: [UInt8], range: Range<Int>) throws(ProtobufError) -> [UInt64] {
        var reader = ProtobufReader(bytes, range: range)
        var values: [UInt64] = []
        while reader.position < reader.end { values.append(try reader.varint()) }
        return values
    }
}
