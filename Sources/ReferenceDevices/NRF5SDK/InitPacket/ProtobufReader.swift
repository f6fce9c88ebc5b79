/// A cursor over protobuf wire data between `position` and `end` of one buffer, with nanopb's limits
/// (the SDK decodes init packets with nanopb 0.3, `external/nano-pb/pb_decode.c`). Every read
/// returns nil on malformed input; nothing traps.
struct ProtobufReader {
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// A base-128 varint of at most 10 bytes (`pb_decode_varint`).
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard position < end else { return nil }
            let byte = bytes[position]
            position += 1
            if shift == 63, byte > 1 { return nil }
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    /// A varint that must fit a 32-bit field: nanopb's `pb_dec_uvarint` refuses larger values
    /// ("integer too large").
    mutating func uint32() -> UInt32? {
        guard let value = varint(), value <= UInt64(UInt32.max) else { return nil }
        return UInt32(value)
    }

    /// The next key: field number and wire type (`pb_decode_tag`). Field 0 and the group wire types
    /// are refused, as nanopb refuses them.
    mutating func key() -> (field: UInt32, wireType: WireType)? {
        guard let key = varint(), key >> 3 != 0, key >> 3 <= UInt64(UInt32.max),
              let wireType = WireType(rawValue: UInt8(key & 7)) else { return nil }
        return (UInt32(key >> 3), wireType)
    }

    /// The range of a length-delimited value, consumed (`pb_make_string_substream`).
    mutating func lengthDelimited() -> Range<Int>? {
        guard let length = varint(), length <= UInt64(end - position) else { return nil }
        let range = position ..< position + Int(length)
        position = range.upperBound
        return range
    }

    /// Skips a value of an unknown field (`pb_skip_field`).
    mutating func skip(_ wireType: WireType) -> Bool {
        switch wireType {
        case .varint: return varint() != nil
        case .lengthDelimited: return lengthDelimited() != nil
        case .fixed64: return advance(8)
        case .fixed32: return advance(4)
        }
    }

    private mutating func advance(_ count: Int) -> Bool {
        guard end - position >= count else { return false }
        position += count
        return true
    }

    /// A reader over `range` of the same buffer (a submessage).
    func sub(_ range: Range<Int>) -> ProtobufReader { ProtobufReader(bytes, range: range) }
}
