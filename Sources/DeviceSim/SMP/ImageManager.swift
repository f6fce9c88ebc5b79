import DFUCore

/// Zephyr's image management group (img_mgmt.c, img_mgmt_state.c, zephyr_img_mgmt.c) in swap
/// mode, for one updatable image or several (`CONFIG_MCUMGR_GRP_IMG_UPDATABLE_IMAGE_NUMBER`, an
/// nRF5340's application and network core): state read/write, erase and slot info here, upload in
/// `ImageManager+Upload.swift`. It keeps the upload session (RAM) and works on the bootloader's
/// flash and trailers, which it is handed for each command.
///
/// Zephyr numbers slots across images: image i has slots 2i (primary) and 2i + 1 (secondary), the
/// state list names them by `image` and `slot` within it, and a hash is looked up in all of them
/// (img_mgmt.c `img_mgmt_find_by_hash`). The running application is image 0, so a confirm
/// without a hash confirms image 0 (img_mgmt_state.c `img_mgmt_state_write`).
struct ImageManager: Sendable {
    let imageCheck: Bool
    /// The upload in progress (`g_img_mgmt_state` with `area_id != -1`).
    var session: UploadSession?

    init(imageCheck: Bool) {
        self.imageCheck = imageCheck
    }

    // MARK: state (command 0)

    /// `img_mgmt_state_read`: every image's slots that hold a valid image, all five flags,
    /// `splitStatus: 0` (the non-frugal list); `image` only when there is more than one image.
    func stateRead(_ boot: MCUbootBootloader) -> CommandOutcome {
        .body(stateResponse(boot).body)
    }

    func stateResponse(_ boot: MCUbootBootloader) -> ImageStateResponse {
        let numbered = boot.images.count > 1
        var images: [ImageSlotState] = []
        for (index, pair) in boot.images.enumerated() {
            let next = NextBoot(pair)
            for (slot, image) in [(0, pair.primaryImage), (1, pair.secondaryImage)] {
                guard let image else { continue }
                let flags = next.flags(for: slot)
                images.append(ImageSlotState(image: numbered ? UInt64(index) : nil, slot: UInt64(slot),
                                             version: image.versionString, hash: image.hash,
                                             bootable: image.isBootable, pending: flags.pending,
                                             confirmed: flags.confirmed, active: flags.active,
                                             permanent: flags.permanent))
            }
        }
        return ImageStateResponse(images: images, splitStatus: 0)
    }

    /// `img_mgmt_state_write`: test (`hash`, no confirm), confirm the running image (`confirm`, no
    /// hash) or make a slot permanent (both). Answers with the new state.
    func stateWrite(_ body: CBORMap, _ boot: inout MCUbootBootloader) -> CommandOutcome {
        guard let request = try? ImageStateWriteRequest(body: body) else { return .rc(.invalidValue) }
        let confirm = request.confirm ?? false
        let hash = request.hash ?? []
        let target: (image: Int, slot: Int)
        if hash.isEmpty {
            guard confirm else { return .image(.invalidHash) }
            target = (0, boot.images[0].activeSlot)
        } else {
            guard hash.count == SHA256.byteCount else { return .image(.invalidHash) }
            guard let found = Self.find(hash, in: boot) else { return .image(.hashNotFound) }
            target = found
        }
        if let refusal = setNextBootSlot(target.slot, of: target.image, confirm: confirm, &boot) {
            return .image(refusal)
        }
        // Writing the trailer (magic, flags, swap info) is a few words of flash.
        return .body(stateResponse(boot).body, duration: boot.primary.timing.writeTime(bytes: 32))
    }

    /// `img_mgmt_find_by_hash`: the first slot, in Zephyr's order, whose SHA256 TLV is `hash`.
    private static func find(_ hash: [UInt8], in boot: MCUbootBootloader) -> (image: Int, slot: Int)? {
        for (index, pair) in boot.images.enumerated() {
            if pair.primaryImage?.hash == hash { return (index, 0) }
            if pair.secondaryImage?.hash == hash { return (index, 1) }
        }
        return nil
    }

    /// `img_mgmt_set_next_boot_slot`, followed by `boot_set_next`. Confirming a slot of an image
    /// other than the running application's is refused for its primary slot (32): with Zephyr's
    /// defaults only `CONFIG_MCUMGR_GRP_IMG_ALLOW_CONFIRM_NON_ACTIVE_IMAGE_SECONDARY` (y) is on,
    /// so another image's secondary slot may be made permanent but its running image not confirmed.
    private func setNextBootSlot(_ slot: Int, of image: Int, confirm: Bool,
                                 _ boot: inout MCUbootBootloader) -> ImageMgmtError? {
        guard boot.images.indices.contains(image) else { return .invalidSlot }
        let next = NextBoot(boot.images[image])
        let active = next.active
        // With direct-XIP's revert Zephyr only refuses a test of the running slot; the trailer
        // states decide the rest at boot.
        if boot.swapMode.revertsUnconfirmed {
            if !confirm && slot == active { return .settingTestToActiveDenied }
            return applyNextBoot(slot, of: image, active: active, confirm: confirm, &boot)
        }
        if confirm && image != 0 && slot == active { return .imageConfirmationDenied }
        if !confirm && slot == active { return .settingTestToActiveDenied }
        switch next.kind {
        case .test:
            // Re-testing the pending slot is a no-op; any other change is refused.
            return !confirm && slot == next.slot ? nil : .imageAlreadyPending
        case .normal:
            if confirm && slot == next.slot { return nil }
            if (slot == active && active != next.slot) || (!confirm && slot != active && slot == next.slot) {
                return .imageAlreadyPending
            }
        case .revert:
            if confirm && slot == next.slot { return nil }
            if !confirm { return .imageAlreadyPending }
        }
        return applyNextBoot(slot, of: image, active: active, confirm: confirm, &boot)
    }

    /// boot_set_next: the active slot can only be confirmed; the other slot gets its magic and
    /// swap info, TEST or PERM.
    private func applyNextBoot(_ slot: Int, of image: Int, active: Int, confirm: Bool,
                               _ boot: inout MCUbootBootloader) -> ImageMgmtError? {
        if slot == active {
            boot.images[image].confirmRunningImage()
        } else {
            boot.images[image].requestUpgrade(permanent: confirm)
        }
        return nil
    }

    // MARK: erase (command 5)

    /// `img_mgmt_erase`: erase a whole slot (default the running application's other slot, 1;
    /// slot 3 is image 1's secondary) unless it holds a valid image that is in use. Ends any
    /// upload session, even when the slot number is invalid.
    mutating func erase(_ body: CBORMap, _ boot: inout MCUbootBootloader) -> CommandOutcome {
        guard let request = try? ImageEraseRequest(body: body) else { return .rc(.invalidValue) }
        let number = request.slot ?? 1
        let (image, slot) = (Int(clamping: number / 2), Int(number % 2))
        guard boot.images.indices.contains(image) else {
            session = nil
            return .image(.invalidSlot)
        }
        let pair = boot.images[image]
        let held = pair.image(inSlot: slot)
        if held != nil && NextBoot(pair).isInUse(slot) { return .image(.noFreeSlot) }
        session = nil
        let time = boot.images[image].withSlot(slot) { $0.eraseAll() }
        return .body([:], duration: time)
    }

    // MARK: slot info (command 6)

    /// `img_mgmt_slot_info`: each image's slot sizes and the largest image MCUboot can swap; slot 1
    /// of image 0 names the `image` that uploads to it.
    func slotInfo(_ boot: MCUbootBootloader) -> CommandOutcome {
        let images = boot.images.enumerated().map { index, pair in
            let slots = [
                ImageSlotInfoResponse.Slot(slot: 0, size: UInt64(pair.primary.size)),
                ImageSlotInfoResponse.Slot(slot: 1, size: UInt64(pair.secondary.size),
                                           uploadImageID: index == 0 ? 0 : nil),
            ]
            return ImageSlotInfoResponse.Image(image: UInt64(index), slots: slots,
                                               maxImageSize: UInt64(pair.maxImageSize(boot.swapMode)))
        }
        return .body(ImageSlotInfoResponse(images: images).body)
    }
}
