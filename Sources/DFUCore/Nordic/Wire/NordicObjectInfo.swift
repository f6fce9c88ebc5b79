import Transport

/// The 12-byte payload of a successful Select (nordic-secure-dfu.md §2, §3.1): how large an object
/// of this type may be, and how far the device is, with the CRC-32 of everything it holds.
/// For data objects offset and CRC are cumulative over the whole image.
public struct NordicObjectInfo: Sendable, Hashable, CustomStringConvertible {
    public static let encodedCount = 12

    public var maxSize: UInt32
    public var offset: UInt32
    public var crc: UInt32

    public init(maxSize: UInt32, offset: UInt32, crc: UInt32) {
        self.maxSize = maxSize
        self.offset = offset
        self.crc = crc
    }

    /// Nil unless `payload` is exactly 12 bytes.
    public init?(payload: [UInt8]) {
        guard payload.count == Self.encodedCount, let maxSize = LittleEndian.u32(payload, at: 0),
              let offset = LittleEndian.u32(payload, at: 4), let crc = LittleEndian.u32(payload, at: 8)
        else { return nil }
        self.init(maxSize: maxSize, offset: offset, crc: crc)
    }

    public var encoded: [UInt8] { LittleEndian.bytes(maxSize) + LittleEndian.bytes(offset) + LittleEndian.bytes(crc) }

    public var description: String { "max \(maxSize), offset \(offset), CRC 0x\(hexDigits(crc, width: 8))" }
}
