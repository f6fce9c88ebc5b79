import Transport

/// The payload of a successful Hardware Version response over serial: five little-endian u32, in
/// the order `response_send` (`nrf_dfu_serial.c`) writes them. `on_hw_version_request`
/// (`nrf_dfu_req_handler.c`) fills them from FICR, converting the sizes from kilobytes to bytes.
public struct NordicHardwareVersion: Sendable, Hashable, CustomStringConvertible {
    public static let encodedCount = 20

    /// FICR INFO.PART, e.g. 0x52840.
    public var part: UInt32
    /// FICR INFO.VARIANT, four ASCII characters such as "AAD0".
    public var variant: UInt32
    public var romSize: UInt32
    public var ramSize: UInt32
    public var romPageSize: UInt32

    public init(part: UInt32, variant: UInt32, romSize: UInt32, ramSize: UInt32, romPageSize: UInt32) {
        self.part = part
        self.variant = variant
        self.romSize = romSize
        self.ramSize = ramSize
        self.romPageSize = romPageSize
    }

    /// Nil unless `payload` is exactly 20 bytes.
    public init?(payload: [UInt8]) {
        guard payload.count == Self.encodedCount, let part = LittleEndian.u32(payload, at: 0),
              let variant = LittleEndian.u32(payload, at: 4), let rom = LittleEndian.u32(payload, at: 8),
              let ram = LittleEndian.u32(payload, at: 12), let page = LittleEndian.u32(payload, at: 16)
        else { return nil }
        self.init(part: part, variant: variant, romSize: rom, ramSize: ram, romPageSize: page)
    }

    public var encoded: [UInt8] {
        LittleEndian.bytes(part) + LittleEndian.bytes(variant) + LittleEndian.bytes(romSize)
            + LittleEndian.bytes(ramSize) + LittleEndian.bytes(romPageSize)
    }

    public var description: String {
        "part 0x\(hexDigits(part, width: 5)), variant 0x\(hexDigits(variant, width: 8)), ROM \(romSize), RAM \(ramSize), page \(romPageSize)"
    }
}
