/// One type-length-value entry of an MCUboot TLV area: `{u16 type, u16 length}` then `length` bytes.
public struct TLV: Sendable, Equatable, CustomStringConvertible {
    public let type: TLVType
    /// Where the value starts in the file (the 4-byte TLV header sits just before it).
    public let valueOffset: Int
    public let value: [UInt8]

    public init(type: TLVType, valueOffset: Int, value: [UInt8]) {
        self.type = type
        self.valueOffset = valueOffset
        self.value = value
    }

    /// Type and length only: values may be key material.
    public var description: String { "\(type), \(value.count) bytes at offset \(valueOffset)" }
}
