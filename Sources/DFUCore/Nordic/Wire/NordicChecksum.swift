import Transport

/// The 8-byte payload of a Calculate Checksum reply and of a PRN notification, which are
/// byte-identical (nordic-secure-dfu.md §6): the device's offset and the CRC-32 of everything before it.
public struct NordicChecksum: Sendable, Hashable, CustomStringConvertible {
    public static let encodedCount = 8

    public var offset: UInt32
    public var crc: UInt32

    public init(offset: UInt32, crc: UInt32) {
        self.offset = offset
        self.crc = crc
    }

    /// Nil unless `payload` is exactly 8 bytes.
    public init?(payload: [UInt8]) {
        guard payload.count == Self.encodedCount, let offset = LittleEndian.u32(payload, at: 0),
              let crc = LittleEndian.u32(payload, at: 4)
        else { return nil }
        self.init(offset: offset, crc: crc)
    }

    public var encoded: [UInt8] { LittleEndian.bytes(offset) + LittleEndian.bytes(crc) }

    public var description: String { "offset \(offset), CRC 0x\(hexDigits(crc, width: 8))" }
}
