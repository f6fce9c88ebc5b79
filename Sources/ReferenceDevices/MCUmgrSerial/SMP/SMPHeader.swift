extension MCUmgrSerial {
    /// `struct smp_hdr` (Zephyr smp.h) = `struct nmgr_hdr` (MCUboot boot_serial_priv.h), 8 bytes:
    /// byte 0 holds `nh_op` in bits 0–2, `nh_version` in bits 3–4 and 3 reserved bits (the
    /// little-endian bit-field layout both use); then flags, big-endian length, big-endian group,
    /// sequence, command id.
    struct SMPHeader: Equatable {
        static let size = 8
        /// `MGMT_OP_READ` … `MGMT_OP_WRITE_RSP`; `MGMT_OP_COUNT` is 4.
        enum Op { static let read: UInt8 = 0, readResponse: UInt8 = 1, write: UInt8 = 2, writeResponse: UInt8 = 3, count: UInt8 = 4 }

        var firstByte: UInt8
        var flags: UInt8
        var length: UInt16
        var group: UInt16
        var sequence: UInt8
        var command: UInt8

        var op: UInt8 { firstByte & 0x07 }
        var version: UInt8 { (firstByte >> 3) & 0x03 }

        init(op: UInt8, version: UInt8, flags: UInt8 = 0, length: UInt16, group: UInt16, sequence: UInt8, command: UInt8) {
            firstByte = (op & 0x07) | (version & 0x03) << 3
            self.flags = flags
            self.length = length
            self.group = group
            self.sequence = sequence
            self.command = command
        }

        init?(_ bytes: [UInt8], at offset: Int = 0) {
            guard offset >= 0, offset + Self.size <= bytes.count,
                  let length = ByteReading.be16(bytes, at: offset + 2),
                  let group = ByteReading.be16(bytes, at: offset + 4) else { return nil }
            firstByte = bytes[offset]
            flags = bytes[offset + 1]
            self.length = length
            self.group = group
            sequence = bytes[offset + 6]
            command = bytes[offset + 7]
        }

        var bytes: [UInt8] {
            [firstByte, flags, UInt8(length >> 8), UInt8(truncatingIfNeeded: length),
             UInt8(group >> 8), UInt8(truncatingIfNeeded: group), sequence, command]
        }
    }

    /// Group ids both firmwares know.
    enum Group {
        static let os: UInt16 = 0      // MGMT_GROUP_ID_OS / MGMT_GROUP_ID_DEFAULT
        static let image: UInt16 = 1   // MGMT_GROUP_ID_IMAGE
    }
}
