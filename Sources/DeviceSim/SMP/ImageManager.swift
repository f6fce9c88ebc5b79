import DFUCore

/// Zephyr's image management group (img_mgmt.c, img_mgmt_state.c, zephyr_img_mgmt.c) for one
/// updatable image in swap mode: state read/write, erase and slot info here, upload in
/// `ImageManager+Upload.swift`. It keeps the upload session (RAM) and works on the bootloader's
/// flash and trailer, which it is handed for each command.
struct ImageManager: Sendable {
    let imageCheck: Bool
    /// The upload in progress (`g_img_mgmt_state` with `area_id != -1`).
    var session: UploadSession?

    init(imageCheck: Bool) {
        self.imageCheck = imageCheck
    }

    // MARK: state (command 0)

    /// `img_mgmt_state_read`: both slots that hold a valid image, all five flags, `splitStatus: 0`
    /// (the non-frugal list).
    func stateRead(_ boot: MCUbootBootloader) -> CommandOutcome {
        .body(stateResponse(boot).body)
    }

    func stateResponse(_ boot: MCUbootBootloader) -> ImageStateResponse {
        let next = NextBoot(boot.swapType)
        var images: [ImageSlotState] = []
        for (slot, image) in [(0, boot.primaryImage), (1, boot.secondaryImage)] {
            guard let image else { continue }
            let flags = next.flags(for: slot)
            images.append(ImageSlotState(slot: UInt64(slot), version: image.versionString, hash: image.hash,
                                         bootable: image.isBootable, pending: flags.pending,
                                         confirmed: flags.confirmed, active: flags.active,
                                         permanent: flags.permanent))
        }
        return ImageStateResponse(images: images, splitStatus: 0)
    }

    /// `img_mgmt_state_write`: test (`hash`, no confirm), confirm the running image (`confirm`, no
    /// hash) or make a slot permanent (both). Answers with the new state.
    func stateWrite(_ body: CBORMap, _ boot: inout MCUbootBootloader) -> CommandOutcome {
        guard let request = try? ImageStateWriteRequest(body: body) else { return .rc(.invalidValue) }
        let confirm = request.confirm ?? false
        let hash = request.hash ?? []
        let slot: Int
        if hash.isEmpty {
            guard confirm else { return .image(.invalidHash) }
            slot = NextBoot.activeSlot
        } else {
            guard hash.count == SHA256.byteCount else { return .image(.invalidHash) }
            if boot.primaryImage?.hash == hash {
                slot = 0
            } else if boot.secondaryImage?.hash == hash {
                slot = 1
            } else {
                return .image(.hashNotFound)
            }
        }
        if let refusal = setNextBootSlot(slot, confirm: confirm, &boot) { return .image(refusal) }
        // Writing the trailer (magic, flags, swap info) is a few words of flash.
        return .body(stateResponse(boot).body, duration: boot.primary.timing.writeTime(bytes: 32))
    }

    /// `img_mgmt_set_next_boot_slot` for one image (so confirming another image's slot, error 32,
    /// cannot arise), followed by `boot_set_next`.
    private func setNextBootSlot(_ slot: Int, confirm: Bool, _ boot: inout MCUbootBootloader) -> ImageMgmtError? {
        let active = NextBoot.activeSlot
        let next = NextBoot(boot.swapType)
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
        // boot_set_next: the active slot can only be confirmed; the other slot gets its magic and
        // swap info, TEST or PERM.
        if slot == active {
            boot.confirmRunningImage()
        } else {
            boot.requestUpgrade(permanent: confirm)
        }
        return nil
    }

    // MARK: erase (command 5)

    /// `img_mgmt_erase`: erase a whole slot (default the non-active one) unless it holds a valid
    /// image that is in use. Ends any upload session, even when the slot number is invalid.
    mutating func erase(_ body: CBORMap, _ boot: inout MCUbootBootloader) -> CommandOutcome {
        guard let request = try? ImageEraseRequest(body: body) else { return .rc(.invalidValue) }
        let slot = request.slot ?? 1
        let next = NextBoot(boot.swapType)
        let image = slot == 0 ? boot.primaryImage : slot == 1 ? boot.secondaryImage : nil
        if image != nil && next.isInUse(Int(slot)) { return .image(.noFreeSlot) }
        session = nil
        switch slot {
        case 0: return .body([:], duration: boot.primary.eraseAll())
        case 1: return .body([:], duration: boot.secondary.eraseAll())
        default: return .image(.invalidSlot)
        }
    }

    // MARK: slot info (command 6)

    /// `img_mgmt_slot_info`: both slots' sizes, which one takes uploads, and the largest image
    /// MCUboot can swap.
    func slotInfo(_ boot: MCUbootBootloader) -> CommandOutcome {
        let slots = [
            ImageSlotInfoResponse.Slot(slot: 0, size: UInt64(boot.primary.size)),
            ImageSlotInfoResponse.Slot(slot: 1, size: UInt64(boot.secondary.size), uploadImageID: 0),
        ]
        let image = ImageSlotInfoResponse.Image(image: 0, slots: slots, maxImageSize: UInt64(boot.maxImageSize))
        return .body(ImageSlotInfoResponse(images: [image]).body)
    }
}
