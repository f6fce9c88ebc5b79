extension MCUmgrSerial {
    /// `struct image_header` (MCUboot bootutil/image.h), 32 bytes, little-endian.
    struct ImageHeader: Equatable {
        static let magicValue: UInt32 = 0x96f3_b83d   // IMAGE_MAGIC
        static let erasedMagic: UInt32 = 0xFFFF_FFFF  // IMAGE_MAGIC_NONE, an erased slot
        static let size = 32                          // IMAGE_HEADER_SIZE
        static let nonBootableFlag: UInt32 = 0x10     // IMAGE_F_NON_BOOTABLE

        var magic: UInt32
        var loadAddress: UInt32
        var headerSize: UInt16
        var protectedTLVSize: UInt16
        var imageSize: UInt32
        var flags: UInt32
        var version: MCUbootImageVersion

        /// Reads the 32 bytes at the start of `bytes`; nil when there are fewer.
        init?(_ bytes: [UInt8]) {
            guard bytes.count >= Self.size,
                  let magic = ByteReading.le32(bytes, at: 0),
                  let load = ByteReading.le32(bytes, at: 4),
                  let hdrSize = ByteReading.le16(bytes, at: 8),
                  let protSize = ByteReading.le16(bytes, at: 10),
                  let imgSize = ByteReading.le32(bytes, at: 12),
                  let flags = ByteReading.le32(bytes, at: 16),
                  let revision = ByteReading.le16(bytes, at: 22),
                  let build = ByteReading.le32(bytes, at: 24) else { return nil }
            self.magic = magic
            loadAddress = load
            headerSize = hdrSize
            protectedTLVSize = protSize
            imageSize = imgSize
            self.flags = flags
            version = MCUbootImageVersion(major: bytes[20], minor: bytes[21], revision: revision, build: build)
        }

        /// Where the TLV areas start (`BOOT_TLV_OFF`).
        var tlvOffset: Int { Int(headerSize) + Int(imageSize) }
    }

    /// TLV area constants (bootutil/image.h).
    enum ImageTLV {
        static let infoMagic: UInt16 = 0x6907           // IMAGE_TLV_INFO_MAGIC
        static let protectedInfoMagic: UInt16 = 0x6908  // IMAGE_TLV_PROT_INFO_MAGIC
        static let sha256: UInt16 = 0x10                // IMAGE_TLV_SHA256
        static let hashLength = 32                      // IMAGE_HASH_LEN
        static let infoSize = 4                         // sizeof(struct image_tlv_info)
    }
}
