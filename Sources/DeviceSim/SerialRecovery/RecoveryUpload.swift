import DFUCore

/// MCUboot's serial recovery upload (boot_serial.c `bs_upload`, with `BOOT_ERASE_PROGRESSIVELY`,
/// Nordic's default): the data goes straight into the primary slot of the image named by the
/// off-0 request, rule for rule:
/// 1. the body must decode (keys `image`, `data`, `len`, `off`; others skipped) and carry `off`
///    and `data`, else rc 3;
/// 2. `off` 0 takes `image` (default 0); an image the device does not have → rc 3;
/// 3. `off` 0 starts over: `len` larger than the slot (or missing) → rc 3; else offset 0, length
///    `len`, nothing erased yet;
/// 4. another `off` than expected → rc 0 with the expected `off`, the data dropped; past `len` → rc 3;
/// 5. the pages up to the chunk's end are erased (a chunk reaching past the slot → rc 3);
/// 6. the chunk is cut to the 4-byte write alignment; the cut bytes are asked again (the answer's
///    `off`) unless they end the image, when they are written padded with 0xFF;
/// 7. at the end of the image the trailer's page is erased too.
/// The state is RAM (static variables): it lasts until the device resets.
struct RecoveryUpload: Sendable {
    /// `flash_area_align` of the nRF52's NVMC.
    static let writeAlignment = 4

    /// What one request came to.
    struct Outcome: Sendable {
        var rc: Int64 = 0
        /// The expected offset, sent with rc 0.
        var offset = 0
        var duration: Duration = .zero
        /// A new upload began: its image and length.
        var started: (image: Int, length: Int)?
        /// The upload reached its length.
        var completed: (image: Int, length: Int)?
    }

    /// `img_size`, `curr_off`, `img_num`, `not_yet_erased`.
    private(set) var length = 0
    private(set) var offset = 0
    private(set) var image = 0
    private var notYetErased = 0

    private static let keys: [String: BulkMapDecoding.Kind] = ["image": .uint32, "data": .bytes, "len": .uint32, "off": .uint32]

    mutating func handle(_ body: ArraySlice<UInt8>, _ boot: inout MCUbootBootloader) -> Outcome {
        guard let request = BulkMapDecoding.decode(body, keys: Self.keys),
              let chunkOffset = Self.number(request["off"]), let data = request["data"]?.bytes else {
            return Outcome(rc: Self.invalid)
        }
        if chunkOffset == 0 { image = Self.number(request["image"]) ?? 0 }
        guard boot.images.indices.contains(image) else { return Outcome(rc: Self.invalid) }
        var outcome = Outcome()
        let slotSize = boot.images[image].primary.size
        if chunkOffset == 0 {
            offset = 0
            guard let requested = Self.number(request["len"]), requested <= slotSize else { return Outcome(rc: Self.invalid) }
            notYetErased = 0
            length = requested
            outcome.started = (image, requested)
        } else if chunkOffset != offset {
            return Outcome(offset: offset)
        } else if offset + data.count > length {
            return Outcome(rc: Self.invalid)
        }
        guard let erased = eraseRange(upTo: offset + data.count - 1, in: &boot.images[image]) else {
            return Outcome(rc: Self.invalid)
        }
        outcome.duration = erased
        // Cut to the write alignment; the remainder is written (padded) only at the image's end.
        var remainder = data.count % Self.writeAlignment
        let aligned = data.count - remainder
        if offset + aligned + remainder < length { remainder = 0 }
        switch boot.images[image].writePrimary(data.prefix(aligned), at: offset) {
        case .failure: return Outcome(rc: Self.invalid)
        case .success(let time): outcome.duration += time
        }
        if remainder > 0 {
            let padded = Array(data[aligned...]) + Array(repeating: FlashSlot.erasedByte, count: Self.writeAlignment - remainder)
            switch boot.images[image].writePrimary(padded, at: offset + aligned) {
            case .failure: return Outcome(rc: Self.invalid)
            case .success(let time): outcome.duration += time
            }
        }
        offset += aligned + remainder
        if offset == length {
            let primary = boot.images[image].primary
            // The sector of the image trailer (`boot_status_off`): the slot's last page.
            outcome.duration += boot.images[image].erasePrimary(primary.size - primary.pageSize ..< primary.size)
            outcome.completed = (image, length)
        }
        outcome.offset = offset
        return outcome
    }

    /// `erase_range(fap, not_yet_erased, end)`: erases from the first page not yet erased to the
    /// end of the page holding `end`; nil (EINVAL) when `end` lies outside the slot.
    private mutating func eraseRange(upTo end: Int, in pair: inout MCUbootImagePair) -> Duration? {
        let slot = pair.primary
        guard end < slot.size else { return nil }
        guard end >= notYetErased else { return .zero }
        let pageEnd = (end / slot.pageSize + 1) * slot.pageSize
        let time = pair.erasePrimary(notYetErased ..< pageEnd)
        notYetErased = pageEnd
        return time
    }

    /// A decoded `uint32` key's value.
    private static func number(_ value: CBORValue?) -> Int? {
        value?.uint.map { Int(clamping: $0) }
    }

    /// MGMT_ERR_EINVAL.
    static let invalid: Int64 = 3
}
