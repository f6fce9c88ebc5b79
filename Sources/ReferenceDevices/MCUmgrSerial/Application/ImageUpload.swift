extension MCUmgrSerial {
    /// img_mgmt.h `struct img_mgmt_state`. Zero-initialised at boot (so `areaID` 0 until the first
    /// `img_mgmt_reset_upload`, which sets -1; either way no upload can be resumed).
    struct ImageUploadState: Equatable {
        var areaID = 0
        var offset = 0
        var size = 0
        var dataSHA: [UInt8] = []
        /// Pages already erased by this upload (`CONFIG_IMG_ERASE_PROGRESSIVELY` only).
        var erasedPages = 0

        static let idle = ImageUploadState(areaID: -1)
    }

    /// img_mgmt.h `struct img_mgmt_upload_action`.
    struct UploadAction: Equatable {
        var size = 0
        var area = -1
        var proceed = false
        var erase = false
    }

    /// img_mgmt.h `struct img_mgmt_upload_req`: nil where the key was absent (`SIZE_MAX`).
    struct UploadRequest: Equatable {
        var image: UInt32 = 0
        var offset: Int?
        var size: Int?
        var data: [UInt8] = []
        var sha: [UInt8] = []
        var upgrade = false
    }
}

extension MCUmgrSerial.ZephyrSMPServer {
    typealias UploadRequest = MCUmgrSerial.UploadRequest
    typealias UploadAction = MCUmgrSerial.UploadAction

    /// img_mgmt.c `img_mgmt_upload`.
    mutating func imageUpload(_ payload: ArraySlice<UInt8>, flash: inout DeviceFlash) -> HandlerOutcome {
        guard let values = MCUmgrSerial.zcborMapDecodeBulk(payload, [
            "image": .uint32, "data": .bytes, "len": .uint32, "off": .uint32, "sha": .bytes, "upgrade": .bool,
        ]) else { return .failure(.invalid) }
        let request = UploadRequest(image: values["image"]?.uint32 ?? 0,
                                    offset: values["off"]?.uint32.map { Int($0) },
                                    size: values["len"]?.uint32.map { Int($0) },
                                    data: values["data"]?.bytes ?? [],
                                    sha: values["sha"]?.bytes ?? [],
                                    upgrade: values["upgrade"]?.bool ?? false)
        let action: UploadAction
        switch inspect(request, flash) {
        case .failure(let error):
            upload = .idle
            return .imageError(error)
        case .success(let inspected):
            action = inspected
        }
        guard action.proceed, let offset = request.offset else { return uploadAnswer() }

        upload.areaID = action.area
        upload.size = action.size
        var last = false
        var finished = false
        var match = false
        if offset == 0 {
            upload.offset = 0
            upload.dataSHA = request.sha
            upload.erasedPages = 0
            if configuration.imageCheck, upload.dataSHA.count == MCUmgrSerial.ImageTLV.hashLength,
               flashHashMatches(flash, area: upload.areaID, count: upload.size) {
                // Already there: the client learns the upload is complete.
                upload.offset = upload.size
                let answer = uploadAnswer(match: true)
                upload = .idle
                return answer
            }
            if !configuration.imageEraseProgressively, action.erase {
                eraseImageData(size: request.size ?? 0, area: upload.areaID, flash: &flash)
            }
        }
        if !request.data.isEmpty {
            last = upload.offset + request.data.count == upload.size
            writeImageData(request.data, at: offset, area: upload.areaID, flash: &flash)
            upload.offset += request.data.count
            if upload.offset == upload.size {
                finished = true
                if configuration.imageCheck {
                    match = flashHashMatches(flash, area: upload.areaID, count: upload.size)
                }
            }
        }
        let answer = uploadAnswer(match: configuration.imageCheck && last ? match : nil)
        if finished { upload = .idle }
        return answer
    }

    /// img_mgmt.c `img_mgmt_upload_good_rsp` (+ "match" with `CONFIG_IMG_ENABLE_IMAGE_CHECK` on the
    /// last chunk).
    private func uploadAnswer(match: Bool? = nil) -> HandlerOutcome {
        var pairs: [CBORPair] = []
        if configuration.legacyRCBehaviour { pairs.append(CBORPair("rc", .unsigned(0))) }
        pairs.append(CBORPair("off", .unsigned(UInt64(upload.offset))))
        if let match { pairs.append(CBORPair("match", .bool(match))) }
        return .ok(pairs)
    }

    /// zephyr_img_mgmt.c `img_mgmt_upload_inspect` (single image, no direct upload).
    func inspect(_ request: UploadRequest, _ flash: DeviceFlash) -> Result<UploadAction, ImageError> {
        guard let offset = request.offset else { return .failure(.invalidOffset) }
        var action = UploadAction()
        if offset == 0 {
            guard request.data.count >= MCUmgrSerial.ImageHeader.size,
                  let header = MCUmgrSerial.ImageHeader(request.data) else { return .failure(.invalidImageHeader) }
            guard let size = request.size else { return .failure(.invalidLength) }
            action.size = size
            guard header.magic == MCUmgrSerial.ImageHeader.magicValue else { return .failure(.invalidImageHeaderMagic) }
            guard request.sha.count <= MCUmgrSerial.ImageTLV.hashLength else { return .failure(.invalidHash) }
            if !request.sha.isEmpty, upload.areaID != -1, upload.dataSHA == request.sha {
                return .success(action)  // resume: answer with the current offset
            }
            // img_mgmt_get_unused_slot_area_id: the first of slots 0 and 1 not in use.
            guard let area = (0..<2).first(where: {
                !MCUmgrSerial.slotInUse($0, flash, allowErasePending: configuration.allowErasePending)
            }), let slot = flash[area] else { return .failure(.noFreeSlot) }
            action.area = area
            guard size <= slot.size else { return .failure(.invalidImageTooLarge) }
            if request.upgrade {
                guard let running = flash[MCUmgrSerial.activeSlot]?.bytes,
                      case .success(let current) = MCUmgrSerial.zephyrReadInfo(running, wantHash: false) else {
                    return .failure(.versionGetFailed)
                }
                if current.version.compare(header.version) >= 0 { return .failure(.currentVersionIsNewer) }
            }
            if !configuration.imageEraseProgressively { action.erase = !slot.isErased }
        } else {
            action.area = upload.areaID
            action.size = upload.size
            if offset != upload.offset { return .success(action) }  // answer with the offset expected
            if offset + request.data.count > action.size { return .failure(.invalidImageDataOverrun) }
        }
        action.proceed = true
        return .success(action)
    }

    /// zephyr_img_mgmt.c `img_mgmt_erase_image_data(0, size)`: the pages up to the one holding the
    /// image's last byte, then the trailer's page.
    private mutating func eraseImageData(size: Int, area: Int, flash: inout DeviceFlash) {
        var pages = 0
        mutateSlot(area, &flash) { slot in
            pages += slot.eraseCovering(0, max(size, 1))
            if (max(size, 1) - 1) / slot.pageSize < slot.pageCount - 1 {
                pages += slot.erasePages(slot.pageCount - 1, count: 1)
            }
        }
        flashTime += configuration.eraseTime(pages: pages)
    }

    /// `img_mgmt_write_image_data` → `flash_img_buffered_write` (stream flash; with
    /// `CONFIG_IMG_ERASE_PROGRESSIVELY` the pages are erased as they are reached).
    private mutating func writeImageData(_ data: [UInt8], at offset: Int, area: Int, flash: inout DeviceFlash) {
        var pages = 0
        let progressive = configuration.imageEraseProgressively
        var erasedPages = upload.erasedPages
        mutateSlot(area, &flash) { slot in
            if progressive {
                let lastPage = (offset + data.count - 1) / slot.pageSize
                if lastPage >= erasedPages {
                    pages += slot.erasePages(erasedPages, count: lastPage - erasedPages + 1)
                    erasedPages = lastPage + 1
                }
            }
            slot.write(data, at: offset)
        }
        upload.erasedPages = erasedPages
        flashTime += configuration.eraseTime(pages: pages) + configuration.writeTime(data.count)
    }

    /// `flash_img_check`: SHA-256 of the area's first `count` bytes against the 32-byte `data_sha`
    /// buffer (zero-padded when the client sent a shorter hash).
    private func flashHashMatches(_ flash: DeviceFlash, area: Int, count: Int) -> Bool {
        guard let slot = flash[area], count >= 0, count <= slot.size else { return false }
        let expected = upload.dataSHA + [UInt8](repeating: 0, count: max(0, 32 - upload.dataSHA.count))
        return MCUmgrSerial.SHA256.digest(slot.bytes[0..<count]) == expected
    }

    func mutateSlot(_ area: Int, _ flash: inout DeviceFlash, _ body: (inout MCUmgrSerial.FlashSlot) -> Void) {
        switch area {
        case 0: body(&flash.primary)
        case 1: body(&flash.secondary)
        default: break
        }
    }

    /// img_mgmt.c `img_mgmt_erase`: "slot" defaults to the slot opposite the running one; a slot
    /// with a readable image that is in use is refused; the upload state is reset either way.
    mutating func imageErase(_ payload: ArraySlice<UInt8>, flash: inout DeviceFlash) -> HandlerOutcome {
        guard let values = MCUmgrSerial.zcborMapDecodeBulk(payload, ["slot": .uint32]) else { return .failure(.invalid) }
        let slot = Int(values["slot"]?.uint32 ?? 1)
        if let bytes = flash[slot]?.bytes, case .success = MCUmgrSerial.zephyrReadInfo(bytes, wantHash: false),
           MCUmgrSerial.slotInUse(slot, flash, allowErasePending: configuration.allowErasePending) {
            return .imageError(.noFreeSlot)
        }
        upload = .idle
        guard flash[slot] != nil else { return .imageError(.invalidSlot) }
        var pages = 0
        mutateSlot(slot, &flash) { target in
            if !target.isErased { pages = target.eraseAll() }
        }
        flashTime += configuration.eraseTime(pages: pages)
        return .ok(configuration.legacyRCBehaviour ? [CBORPair("rc", .unsigned(0))] : [])
    }
}
