/// CRC-16/XMODEM: polynomial 0x1021, initial value 0, no reflection, no final XOR (check value
/// 0x31C3 over "123456789"). It is the checksum of SMP's serial framing: Zephyr computes it with
/// `crc16_itu_t(0x0000, …)` (`serial_util.c`, `mcumgr_serial_calc_crc`), MCUboot's serial recovery
/// with the same call (`boot_serial.c`, `boot_serial_output`), and smp's `packet.py` with crcmod's
/// "xmodem". A value can be continued with more bytes.
public struct CRC16XMODEM: Sendable, Hashable {
    /// The checksum of everything fed so far; 0 for no bytes.
    public private(set) var value: UInt16

    /// Continues from the checksum `value` of some earlier bytes (0: start from nothing).
    public init(continuing value: UInt16 = 0) { self.value = value }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var crc = value
        for byte in bytes {
            crc = Self.table[Int((crc >> 8) ^ UInt16(byte))] ^ (crc << 8)
        }
        value = crc
    }

    /// The checksum of `bytes` alone.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc = CRC16XMODEM()
        crc.update(bytes)
        return crc.value
    }

    /// One entry per high byte of the running register: the byte-at-a-time form of the polynomial.
    private static let table: [UInt16] = (0..<256).map { index in
        var entry = UInt16(index) << 8
        for _ in 0..<8 { entry = entry & 0x8000 != 0 ? (entry << 1) ^ 0x1021 : entry << 1 }
        return entry
    }
}
