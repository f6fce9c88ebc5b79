import DFUCore

/// Image upload (command 1), rule for rule as zephyr_img_mgmt.c `img_mgmt_upload_inspect` and
/// img_mgmt.c `img_mgmt_upload` apply them (reference §3):
/// 1. no `off` → 20;
/// 2. `off == 0`: chunk < 32 bytes → 22; no `len` → 21; bad header magic → 23; `sha` > 32 bytes → 24;
///    a non-empty `sha` equal to the session's → resume: nothing written, reply the session's `off`;
///    otherwise a new session: secondary slot in use → 9; `len` > what the slot can hold → 30;
///    `upgrade` and not newer → 27; then the slot region is erased before the reply;
/// 3. `off != 0` and not the expected offset → data discarded, success with the expected `off`;
/// 4. `off + len(data) > len` → 31;
/// 5. write; the session ends when `off == len` (the reply still says `off: len`).
/// Any error ends the session; so does a completed upload. With one updatable image `image` is
/// ignored: Zephyr uploads to the secondary slot whatever it says (reference §8). With several,
/// the off-0 request's `image` (default 0) picks the pair, and an image the device does not have
/// has no free slot, 9 (zephyr_img_mgmt.c `img_mgmt_get_unused_slot_area_id`). `upgrade` compares
/// with the running application's version, image 0's, whatever `image` says
/// (`img_mgmt_upload_inspect` calls `img_mgmt_my_version`).
extension ImageManager {
    mutating func upload(_ body: CBORMap, _ boot: inout MCUbootBootloader) -> CommandOutcome {
        let request: ImageUploadRequest
        do {
            request = try ImageUploadRequest(body: body)
        } catch .missingField("off") {
            // The body decoded; only `off` is missing, which inspect reports (and which ends the session).
            session = nil
            return .image(.invalidOffset)
        } catch {
            // zcbor_map_decode_bulk failed: EINVAL before the lock, the session survives.
            return .rc(.invalidValue)
        }
        switch inspect(request, boot) {
        case .refuse(let error):
            session = nil
            return .image(error)
        case .answerOffset:
            return .body(ImageUploadResponse(offset: UInt64(session?.offset ?? 0)).body)
        case .proceed(let newSession):
            return write(request, newSession: newSession, &boot)
        }
    }

    private enum Inspection {
        case refuse(ImageMgmtError)
        /// Resume, or a wrong offset: write nothing and tell the client where the server is.
        case answerOffset
        /// Write the chunk; `newSession` is set for an off-0 request that starts over.
        case proceed(newSession: UploadSession?)
    }

    private func inspect(_ request: ImageUploadRequest, _ boot: MCUbootBootloader) -> Inspection {
        let length: Int
        let newSession: UploadSession?
        if request.offset == 0 {
            guard request.data.count >= MCUbootHeader.size else { return .refuse(.invalidImageHeader) }
            guard let requestedLength = request.length else { return .refuse(.invalidLength) }
            guard littleEndian32(request.data, at: 0) == MCUbootHeader.magic else {
                return .refuse(.invalidImageHeaderMagic)
            }
            let sha = request.sha ?? []
            guard sha.count <= SHA256.byteCount else { return .refuse(.invalidHash) }
            if !sha.isEmpty, let session, session.sha == sha { return .answerOffset }
            let image = boot.images.count > 1 ? Int(clamping: request.image ?? 0) : 0
            guard boot.images.indices.contains(image) else { return .refuse(.noFreeSlot) }
            let pair = boot.images[image]
            guard !NextBoot(pair).isInUse(pair.uploadSlot) else { return .refuse(.noFreeSlot) }
            guard requestedLength <= UInt64(pair.maxImageSize(boot.swapMode)) else { return .refuse(.imageTooLarge) }
            if request.upgrade == true, let running = boot.runningImage?.version,
               !isNewer(headerVersion(request.data), than: running) {
                return .refuse(.currentVersionIsNewer)
            }
            length = Int(requestedLength)
            newSession = UploadSession(length: length, sha: sha, image: image)
        } else {
            guard let session, request.offset == UInt64(session.offset) else { return .answerOffset }
            length = session.length
            newSession = nil
        }
        let (end, overflow) = request.offset.addingReportingOverflow(UInt64(request.data.count))
        guard !overflow, end <= UInt64(length) else { return .refuse(.imageDataOverrun) }
        return .proceed(newSession: newSession)
    }

    private mutating func write(_ request: ImageUploadRequest, newSession: UploadSession?,
                                _ boot: inout MCUbootBootloader) -> CommandOutcome {
        var duration: Duration = .zero
        if let newSession {
            session = newSession
            let target = boot.images[newSession.image].uploadSlot
            let slot = boot.images[newSession.image].slot(target)
            if imageCheck, newSession.sha.count == SHA256.byteCount,
               slotMatches(slot, length: newSession.length, sha: newSession.sha) {
                // The data is already there: report the upload finished without a transfer.
                session = nil
                return .body(ImageUploadResponse(offset: UInt64(newSession.length), match: true).body)
            }
            if !slot.isErased {
                // Zephyr erases the page-rounded image region and the trailer before it answers,
                // which is why the first reply can take seconds.
                duration += boot.images[newSession.image].withSlot(target) {
                    $0.erase(0 ..< newSession.length) + $0.erase(slot.size - slot.pageSize ..< slot.size)
                }
            }
        }
        guard var current = session, boot.images.indices.contains(current.image) else { return .image(.unknown) }
        let target = boot.images[current.image].uploadSlot
        if !request.data.isEmpty {
            switch boot.images[current.image].withSlot(target, { $0.write(request.data, at: current.offset) }) {
            case .success(let time):
                duration += time
            case .failure:
                session = nil
                return .image(.flashWriteFailed, duration: duration)
            }
            current.offset += request.data.count
        }
        let progress = UploadProgress(offset: current.offset, length: current.length, image: current.image)
        var response = ImageUploadResponse(offset: UInt64(current.offset))
        if current.offset == current.length {
            if imageCheck, current.sha.count == SHA256.byteCount {
                response.match = slotMatches(boot.images[current.image].slot(target), length: current.length, sha: current.sha)
            }
            session = nil
        } else {
            session = current
        }
        var outcome = CommandOutcome.body(response.body, duration: duration)
        if !request.data.isEmpty { outcome.progress = progress }
        return outcome
    }

    /// `flash_img_check`: the SHA-256 of the slot's first `length` bytes against `sha`.
    private func slotMatches(_ slot: FlashSlot, length: Int, sha: [UInt8]) -> Bool {
        guard length <= slot.size, let digest = try? SHA256.hash(slot.read(0 ..< length)) else { return false }
        return digest == sha
    }

    /// The version in an image header (`ih_ver` at byte 20); the chunk is at least 32 bytes here.
    private func headerVersion(_ data: [UInt8]) -> ImageVersion {
        ImageVersion(major: data[20], minor: data[21], revision: UInt16(data[22]) | UInt16(data[23]) << 8,
                     build: littleEndian32(data, at: 24))
    }

    /// `img_mgmt_vercmp` without the build number (`CONFIG_MCUMGR_GRP_IMG_VERSION_CMP_USE_BUILD_NUMBER`
    /// is off by default).
    private func isNewer(_ candidate: ImageVersion, than running: ImageVersion) -> Bool {
        (candidate.major, candidate.minor, candidate.revision) > (running.major, running.minor, running.revision)
    }

    private func littleEndian32(_ data: [UInt8], at offset: Int) -> UInt32 {
        guard data.count >= offset + 4 else { return 0 }
        return (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(data[offset + $1]) << (8 * $1) }
    }
}
