import DFUCore

/// One updatable image of MCUboot in swap mode: its primary and secondary slot and its trailer
/// state. A multi-image MCUboot (`MCUBOOT_UPDATEABLE_IMAGE_NUMBER` > 1, an nRF5340's application
/// and network core) keeps one such pair per image and handles each on its own at boot
/// (mcu-tools/mcuboot docs/design.md "Multiple image boot").
public struct MCUbootImagePair: Sendable {
    public internal(set) var primary: FlashSlot
    public internal(set) var secondary: FlashSlot
    /// The trailer state: what the next boot will do with this image (swap modes).
    public internal(set) var swapType: MCUbootSwapType = .none
    let mode: MCUbootSwapMode
    /// The slot the image runs from: 0 in swap modes; either in direct-XIP and RAM-load.
    public internal(set) var activeSlot = 0
    /// Direct-XIP and RAM-load: each slot's trailer (the factory image's is confirmed).
    var trailers = [XIPTrailer.confirmed, XIPTrailer()]
    /// Direct-XIP: the SHA256 TLVs of images that passed validation (or were programmed at the
    /// factory), so booting back to one does not re-validate the synthetic factory image.
    var validatedHashes: Set<[UInt8]> = []

    init(primary: FlashSlot, secondary: FlashSlot, mode: MCUbootSwapMode = .withoutScratch) {
        self.primary = primary
        self.secondary = secondary
        self.mode = mode
    }

    /// Slot 0 or 1.
    func slot(_ number: Int) -> FlashSlot { number == 0 ? primary : secondary }

    /// Runs `change` on slot 0 or 1.
    mutating func withSlot<T>(_ number: Int, _ change: (inout FlashSlot) -> T) -> T {
        number == 0 ? change(&primary) : change(&secondary)
    }

    public func image(inSlot number: Int) -> SlotImage? { SlotImage(in: slot(number)) }
    /// The image the application runs.
    public var runningImage: SlotImage? { image(inSlot: activeSlot) }
    /// Where an upload goes: the secondary slot, or in direct-XIP the one the image does not run
    /// from (zephyr_img_mgmt.c: the opposite of the active slot).
    var uploadSlot: Int { mode.hasEqualSlots ? 1 - activeSlot : 1 }

    public var primaryImage: SlotImage? { SlotImage(in: primary) }
    public var secondaryImage: SlotImage? { SlotImage(in: secondary) }

    /// The largest image the secondary slot takes: the slot minus what MCUboot reserves at its end.
    func maxImageSize(_ mode: MCUbootSwapMode) -> Int {
        max(0, primary.size - mode.reservedPages * primary.pageSize)
    }

    /// `boot_request_upgrade_multi` for this image: swap the secondary in at the next boot. In
    /// direct-XIP `boot_set_next` writes the other slot's magic (and image_ok when permanent).
    mutating func requestUpgrade(permanent: Bool) {
        if mode.hasEqualSlots {
            trailers[1 - activeSlot] = XIPTrailer(magic: true, imageOK: permanent, copyDone: false)
            return
        }
        swapType = permanent ? .permanent : .test
    }

    /// `boot_write_img_confirmed` on the running image: cancels a pending revert.
    mutating func confirmRunningImage() {
        if mode.hasEqualSlots {
            trailers[activeSlot].magic = true
            trailers[activeSlot].imageOK = true
            return
        }
        if swapType == .revert { swapType = .none }
    }

    /// What MCUboot does with this image at reset (see `MCUbootBootloader`), and the flash time.
    mutating func boot(key: PublicKey, decryptionKey: ImageDecryptionKey?, mode: MCUbootSwapMode) -> (BootReport.Outcome, Duration) {
        if mode.hasEqualSlots { return equalSlotsBoot(key: key) }
        switch swapType {
        case .none:
            return (.normal, .zero)
        case .test, .permanent:
            let permanent = swapType == .permanent
            switch BootValidation.check(secondary.bytes, key: key, decryptionKey: decryptionKey, mode: mode,
                                        primarySize: maxImageSize(mode)) {
            case .failure(let rejection):
                swapType = .none
                return (.rejected(reason: rejection.reason), secondary.eraseAll())
            case .success(.overwrite(let installed, let decompressed)):
                // Overwrite-only has no way back: the new image is the only one, confirmed.
                swapType = .none
                return (.overwritten(decompressed: decompressed), overwritePrimary(with: installed))
            case .success(.swap(let decrypted)):
                // The model keeps the old image plaintext in the secondary slot after the swap;
                // MCUboot re-encrypts it, but what SMP shows (its SHA256 TLV) is the same.
                var time = Duration.zero
                if let decrypted {
                    time += secondary.eraseAll()
                    if case .success(let written) = secondary.write(decrypted, at: 0) { time += written }
                }
                time += swapSlots()
                swapType = permanent ? .none : .revert
                return (.swapped(permanent: permanent), time)
            }
        case .revert:
            let time = swapSlots()
            swapType = .none
            return (.reverted, time)
        }
    }

    /// Why MCUboot would refuse the secondary image, or nil if it boots.
    func secondaryRejection(key: PublicKey, decryptionKey: ImageDecryptionKey?, mode: MCUbootSwapMode) -> String? {
        rejection(of: secondary, key: key, decryptionKey: decryptionKey, mode: mode)
    }

    /// Why MCUboot would refuse the image in `slot`, or nil if it boots.
    func rejection(of slot: FlashSlot, key: PublicKey, decryptionKey: ImageDecryptionKey?, mode: MCUbootSwapMode) -> String? {
        if case .failure(let rejection) = BootValidation.check(slot.bytes, key: key, decryptionKey: decryptionKey,
                                                               mode: mode, primarySize: maxImageSize(mode)) {
            return rejection.reason
        }
        return nil
    }

    /// `boot_copy_image`: erase the primary slot, write the new image, then erase the secondary
    /// slot's first sector (its header), so the application no longer lists it. Returns the flash time.
    private mutating func overwritePrimary(with installed: [UInt8]) -> Duration {
        var time = primary.eraseAll()
        if case .success(let written) = primary.write(installed, at: 0) { time += written }
        return time + secondary.erase(0 ..< secondary.pageSize)
    }

    /// Exchanges the slots and returns the time MCUboot needs for it. Both swap modes move each
    /// used sector three times (scratch: primary→scratch, secondary→primary, scratch→secondary;
    /// move: shift up, then two copies), each move an erase plus a page program.
    private mutating func swapSlots() -> Duration {
        let used = max(primaryImage?.length ?? 0, secondaryImage?.length ?? 0)
        // The trailer sector is rewritten too.
        let sectors = primary.pages(covering: 0 ..< used).count + 1
        primary.exchangeContents(with: &secondary)
        let perSector = primary.timing.eraseTime(pages: 1) + primary.timing.writeTime(bytes: primary.pageSize)
        return perSector * (3 * sectors)
    }
}
