extension MCUmgrSerial {
    /// An image MCUboot would accept, as far as the model checks it.
    struct BootImage: Equatable {
        var header: ImageHeader
        /// The SHA-256 TLV value (equal to the computed hash).
        var hash: [UInt8]
        /// Header, body and both TLV areas: the bytes that make up the image in the slot.
        var totalSize: Int
    }

    /// One TLV found by `bootutilTLVs`.
    struct BootTLV: Equatable {
        var type: UInt16
        var offset: Int
        var length: Int
        var isProtected: Bool
    }

    /// bootutil/src/tlv.c `bootutil_tlv_iter_begin` + `bootutil_tlv_iter_next` with IMAGE_TLV_ANY:
    /// a protected area (0x6908) must be exactly `ih_protect_tlv_size` long, and without one that
    /// size must be 0; then the unprotected area (0x6907). TLV headers are `it_type`, `it_len`
    /// (16 bits each). Nil where the iterator would fail to begin or read past the slot.
    static func bootutilTLVs(_ slot: [UInt8], header: ImageHeader) -> (tlvs: [BootTLV], end: Int)? {
        let start = header.tlvOffset
        guard var magic = ByteReading.le16(slot, at: start), var total = ByteReading.le16(slot, at: start + 2) else {
            return nil
        }
        if magic == ImageTLV.protectedInfoMagic {
            guard header.protectedTLVSize == total,
                  let next = ByteReading.le16(slot, at: start + Int(total)),
                  let nextTotal = ByteReading.le16(slot, at: start + Int(total) + 2) else { return nil }
            magic = next
            total = nextTotal
        } else if header.protectedTLVSize != 0 {
            return nil
        }
        guard magic == ImageTLV.infoMagic else { return nil }
        let protectedEnd = start + Int(header.protectedTLVSize)
        let end = protectedEnd + Int(total)
        var offset = start + ImageTLV.infoSize
        var found: [BootTLV] = []
        while offset < end {
            if offset == protectedEnd { offset += ImageTLV.infoSize }
            guard let type = ByteReading.le16(slot, at: offset),
                  let length = ByteReading.le16(slot, at: offset + 2) else { return nil }
            let isProtected = offset < protectedEnd
            found.append(BootTLV(type: type, offset: offset + 4, length: Int(length), isProtected: isProtected))
            offset += 4 + Int(length)
        }
        return (found, end)
    }

    /// MCUboot's view of a slot: loader.c `boot_check_header_valid` (magic; header + body inside
    /// the slot) and image_validate.c `bootutil_img_validate` for the hash: SHA-256 over header,
    /// body and protected TLVs equal to every SHA-256 TLV (32 bytes, not in the protected area),
    /// and at least one such TLV. The signature is NOT checked (a real MCUboot would also require
    /// one from its key); the model accepts any image whose hash holds.
    static func bootValidate(_ slot: [UInt8]) -> BootImage? {
        guard let header = ImageHeader(slot), header.magic == ImageHeader.magicValue else { return nil }
        let bodyEnd = Int(header.headerSize) + Int(header.imageSize)
        guard bodyEnd < slot.count, let walk = bootutilTLVs(slot, header: header) else { return nil }
        let hashedEnd = bodyEnd + Int(header.protectedTLVSize)
        guard hashedEnd <= slot.count, walk.end <= slot.count else { return nil }
        let digest = SHA256.digest(slot[0..<hashedEnd])
        var hashMatched = false
        for tlv in walk.tlvs where tlv.type == ImageTLV.sha256 {
            guard !tlv.isProtected, tlv.length == ImageTLV.hashLength,
                  ByteReading.slice(slot, at: tlv.offset, count: tlv.length) == digest else { return nil }
            hashMatched = true
        }
        guard hashMatched else { return nil }
        return BootImage(header: header, hash: digest, totalSize: walk.end)
    }

    /// boot_serial.c `boot_serial_get_hash`: the first SHA-256 TLV (any area); nil when it is not
    /// 32 bytes long or the walk fails.
    static func bootSerialHash(_ slot: [UInt8]) -> [UInt8]? {
        guard let header = ImageHeader(slot), let walk = bootutilTLVs(slot, header: header),
              let tlv = walk.tlvs.first(where: { $0.type == ImageTLV.sha256 }),
              tlv.length == ImageTLV.hashLength else { return nil }
        return ByteReading.slice(slot, at: tlv.offset, count: tlv.length)
    }
}
