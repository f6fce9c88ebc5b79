extension MCUmgrSerial.BootSerialServer {
    typealias CBORItem = MCUmgrSerial.CBORItem
    typealias CBORPair = MCUmgrSerial.CBORPair
    typealias DeviceFlash = MCUmgrSerial.DeviceFlash

    /// boot_serial.c `bs_upload`, straight into the primary slot of image `img_num` (only image 0
    /// exists: any other number fails to open its flash area → MGMT_ERR_EINVAL). Answers
    /// `{"rc": rc, "off": curr_off}`, "off" only when rc is 0.
    mutating func upload(_ body: ArraySlice<UInt8>, flash: inout DeviceFlash) -> CBORItem {
        guard let values = MCUmgrSerial.zcborMapDecodeBulk(body, ["image": .uint32, "data": .bytes, "len": .uint32, "off": .uint32]),
              let offset = values["off"]?.uint32.map({ Int($0) }), let data = values["data"]?.bytes else {
            return answer(.invalid)
        }
        if offset == 0 { imageNumber = values["image"]?.uint32 ?? 0 }
        // flash_area_open(flash_area_id_from_multi_image_slot(img_num, 0)).
        guard imageNumber == 0 else { return answer(.invalid) }
        let area = flash.primary.size
        if offset == 0 {
            // "Receiving chunk with 0 offset resets the upload state."
            currentOffset = 0
            let size = values["len"]?.uint32.map { Int($0) } ?? Int.max
            guard size <= area else { return answer(.invalid) }
            if configuration.recoveryEraseProgressively {
                notYetErased = 0
            } else {
                flashTime += configuration.eraseTime(pages: flash.primary.eraseAll())
            }
            imageSize = size
        } else if offset != currentOffset {
            return answer(.ok)  // pretend success and ask for the expected offset
        } else if currentOffset + data.count > imageSize {
            return answer(.invalid)
        }
        if configuration.recoveryEraseProgressively {
            guard let next = eraseRange(from: notYetErased, through: currentOffset + data.count - 1, flash: &flash) else {
                return answer(.invalid)
            }
            notYetErased = next
        }
        // Writes are cut to the flash write alignment; the cut bytes are asked for again unless this
        // is the end of the image, where they are padded with erased bytes.
        let alignment = max(1, configuration.flashWriteAlignment)
        var remainder = data.count % alignment
        let aligned = data.count - remainder
        if currentOffset + aligned + remainder < imageSize { remainder = 0 }
        let written = aligned + (remainder > 0 ? alignment : 0)
        guard currentOffset + written <= area else { return answer(.invalid) }
        var bytes = Array(data.prefix(aligned))
        if remainder > 0 {
            bytes += data[aligned..<aligned + remainder]
            bytes += [UInt8](repeating: 0xFF, count: alignment - remainder)
        }
        flash.primary.write(bytes, at: currentOffset)
        flashTime += configuration.writeTime(bytes.count)
        currentOffset += aligned + remainder
        if currentOffset == imageSize, configuration.recoveryEraseProgressively {
            // The trailer's sector is erased even if an earlier upload left it erased.
            flashTime += configuration.eraseTime(pages: flash.primary.erasePages(flash.primary.pageCount - 1, count: 1))
        }
        return answer(.ok)
    }

    private func answer(_ rc: MCUmgrSerial.MgmtError) -> CBORItem {
        var pairs = [CBORPair("rc", .unsigned(UInt64(rc.rawValue)))]
        if rc == .ok { pairs.append(CBORPair("off", .unsigned(UInt64(currentOffset)))) }
        return .map(pairs)
    }

    /// boot_serial.c `erase_range`: erases from `start` to the end of the sector holding `end`;
    /// returns the next offset to erase, or nil (-EINVAL) when `end` is past the slot.
    private mutating func eraseRange(from start: Int, through end: Int, flash: inout DeviceFlash) -> Int? {
        guard end < flash.primary.size else { return nil }
        if end < start { return start }
        let pageSize = flash.primary.pageSize
        let sectorEnd = (end / pageSize + 1) * pageSize
        flashTime += configuration.eraseTime(pages: flash.primary.eraseCovering(start, sectorEnd))
        return sectorEnd
    }
}
