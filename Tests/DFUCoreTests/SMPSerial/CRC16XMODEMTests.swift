import Testing
@testable import DFUCore

@Suite struct CRC16XMODEMTests {
    @Test func catalogueCheckValue() {
        // The CRC catalogue's check value for CRC-16/XMODEM: the CRC of the ASCII digits 1–9.
        #expect(CRC16XMODEM.checksum(ascii("123456789")) == 0x31C3)
    }

    @Test func noBytesGiveZero() {
        #expect(CRC16XMODEM.checksum([]) == 0)
        #expect(CRC16XMODEM().value == 0)
    }

    @Test func continuingEqualsOneRun() {
        var random = SplitMix64(seed: 0xC2C16)
        for _ in 0..<200 {
            let bytes = (0..<random.next(below: 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let cut = random.next(below: bytes.count + 1)
            var crc = CRC16XMODEM()
            crc.update(bytes[..<cut])
            crc = CRC16XMODEM(continuing: crc.value)
            crc.update(bytes[cut...])
            #expect(crc.value == CRC16XMODEM.checksum(bytes))
        }
    }

    @Test func tableAgreesWithBitwiseDefinition() {
        var random = SplitMix64(seed: 0x1021)
        for _ in 0..<200 {
            let bytes = (0..<random.next(below: 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(CRC16XMODEM.checksum(bytes) == bitwise(bytes))
        }
    }

    /// Zephyr checks a received packet by running the CRC over the packet and the CRC it carries
    /// (big-endian) and expecting 0 (`serial_util.c`, `mcumgr_serial_process_frag`).
    @Test func packetFollowedByItsBigEndianCRCChecksToZero() {
        for count in [0, 1, 8, 100, 1000] {
            let packet = samplePacket(count)
            let crc = CRC16XMODEM.checksum(packet)
            #expect(CRC16XMODEM.checksum(packet + [UInt8(crc >> 8), UInt8(crc & 0xFF)]) == 0)
        }
    }

    /// Polynomial 0x1021, MSB first, initial 0, no final XOR, one bit at a time.
    private func bitwise(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
