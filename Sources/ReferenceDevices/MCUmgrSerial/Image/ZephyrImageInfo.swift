extension MCUmgrSerial {
    /// What img_mgmt reads from a slot: version, SHA-256 TLV value, header flags.
    struct ZephyrImageInfo: Equatable {
        var version: MCUbootImageVersion
        var hash: [UInt8]?
        var flags: UInt32
    }

    /// Zephyr img_mgmt.c `img_mgmt_read_info`, ported literally, quirks included:
    /// - the end of each TLV area is taken as `info + 4 + it_tlv_tot` although `it_tlv_tot` already
    ///   counts the 4-byte info header (`img_mgmt_find_tlvs`), so the walk may read 4 bytes past it;
    /// - after the SHA-256 TLV's header the walk carries on *inside* the hash value, reading its
    ///   bytes as further TLV headers (`data_off += sizeof(tlv)` only);
    /// - a TLV header is `it_type` (one byte), a pad byte, `it_len`; type 0xFF with length 0xFFFF
    ///   (erased flash) is an invalid TLV.
    /// Reads past the slot fail as `flash_area_read` does (IMG_MGMT_ERR_FLASH_READ_FAILED).
    static func zephyrReadInfo(_ slot: [UInt8], wantHash: Bool) -> Result<ZephyrImageInfo, ImageError> {
        guard let header = ImageHeader(slot) else { return .failure(.flashReadFailed) }
        if header.magic == ImageHeader.erasedMagic { return .failure(.noImage) }
        guard header.magic == ImageHeader.magicValue else { return .failure(.invalidImageHeaderMagic) }

        func findTLVs(_ start: Int, magic: UInt16) -> Result<(start: Int, end: Int), ImageError> {
            guard let found = ByteReading.le16(slot, at: start),
                  let total = ByteReading.le16(slot, at: start + 2) else { return .failure(.flashReadFailed) }
            guard found == magic else { return .failure(.noTLVs) }
            let dataStart = start + ImageTLV.infoSize
            return .success((dataStart, dataStart + Int(total)))
        }

        var dataOffset = header.tlvOffset
        if case .success(let area) = findTLVs(dataOffset, magic: ImageTLV.protectedInfoMagic) {
            dataOffset = area.end - ImageTLV.infoSize
        }
        guard case .success(let area) = findTLVs(dataOffset, magic: ImageTLV.infoMagic) else {
            return .failure(.noTLVs)
        }
        dataOffset = area.start
        let dataEnd = area.end
        var hash: [UInt8]?
        var hashFound = false
        while dataOffset + 4 <= dataEnd {
            guard dataOffset + 4 <= slot.count, let length = ByteReading.le16(slot, at: dataOffset + 2) else {
                return .failure(.flashReadFailed)
            }
            let type = slot[dataOffset]
            if type == 0xFF, length == 0xFFFF { return .failure(.invalidTLV) }
            if UInt16(type) != ImageTLV.sha256 || Int(length) != ImageTLV.hashLength {
                dataOffset += 4 + Int(length)
                continue
            }
            if hashFound { return .failure(.tlvMultipleHashesFound) }
            hashFound = true
            dataOffset += 4
            if wantHash {
                if dataOffset + ImageTLV.hashLength > dataEnd { return .failure(.tlvInvalidSize) }
                guard let value = ByteReading.slice(slot, at: dataOffset, count: ImageTLV.hashLength) else {
                    return .failure(.flashReadFailed)
                }
                hash = value
            }
        }
        guard hashFound else { return .failure(.hashNotFound) }
        return .success(ZephyrImageInfo(version: header.version, hash: hash, flags: header.flags))
    }
}
