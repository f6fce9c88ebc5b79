extension MCUmgrSerial {
    /// CRC-16/XMODEM: polynomial 0x1021, MSB first, no reflection, no final XOR. Zephyr's
    /// `crc16_itu_t(0x0000, …)` as serial_util.c `mcumgr_serial_calc_crc` and boot_serial.c
    /// `boot_serial_output`/`boot_serial_in_dec` call it. A packet followed by its own CRC (big-endian)
    /// has CRC 0, which is how both receivers check it.
    enum CRC16 {
        static func xmodem<S: Sequence>(_ bytes: S, seed: UInt16 = 0) -> UInt16 where S.Element == UInt8 {
            var crc = seed
            for byte in bytes {
                crc ^= UInt16(byte) << 8
                for _ in 0..<8 {
                    crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
                }
            }
            return crc
        }
    }
}
