import DFUCore

/// MCUboot in swap mode with two slots of one image, as the application and the boot ROM see it.
///
/// Flash contents are real bytes (`FlashSlot`); the trailer is modelled by its meaning, one
/// `MCUbootSwapType`, instead of magic and flag bytes at the end of each slot. `boot()` does what
/// MCUboot does at reset (design.md "Boot swap types", "Integrity check"):
/// - `.test` / `.permanent`: validate the secondary image the way `bootutil_img_validate` does
///   (SHA256 TLV over header, body and protected TLVs; KEYHASH must name the device's key; a
///   signature TLV of that key's type must verify). Valid: swap the slots (slot 0 new, slot 1 old);
///   a test swap leaves the new image unconfirmed, a permanent one confirmed. Invalid: erase the
///   secondary slot and boot the old image, as `boot_validate_slot` does.
/// - `.revert`: the running test image was never confirmed, so swap the old image back (and mark it
///   confirmed, as MCUboot does after a revert).
/// - `.none`: boot the primary slot.
///
/// The primary image is trusted and not re-validated at boot (`MCUBOOT_VALIDATE_PRIMARY_SLOT` off):
/// the virtual device starts from a synthetic unsigned image.
public struct MCUbootBootloader: Sendable {
    /// The one key MCUboot was built with.
    public let key: PublicKey
    public let swapMode: MCUbootSwapMode
    /// From the end of the bootloader to the application advertising again.
    public var startupTime: Duration
    public internal(set) var primary: FlashSlot
    public internal(set) var secondary: FlashSlot
    /// The trailer state: what the next boot will do.
    public private(set) var swapType: MCUbootSwapType = .none

    /// Two erased slots of `slotSize` with `runningImage` programmed into the primary one (as a
    /// factory programmer would: confirmed, no trailer).
    public init(slotSize: Int, pageSize: Int = FlashSlot.defaultPageSize, timing: FlashTiming = .nRF52840,
                key: PublicKey, swapMode: MCUbootSwapMode = .withoutScratch,
                startupTime: Duration = .milliseconds(300), runningImage: [UInt8]) throws(BootloaderSetupError) {
        self.key = key
        self.swapMode = swapMode
        self.startupTime = startupTime
        primary = FlashSlot(size: slotSize, pageSize: pageSize, timing: timing)
        secondary = FlashSlot(size: slotSize, pageSize: pageSize, timing: timing)
        guard runningImage.count <= maxImageSize else {
            throw .imageTooLarge(size: runningImage.count, maximum: maxImageSize)
        }
        guard case .success = primary.write(runningImage, at: 0), SlotImage(in: primary) != nil else {
            throw .runningImageInvalid
        }
    }

    /// The largest image a slot takes: the slot minus what MCUboot reserves at its end.
    public var maxImageSize: Int {
        max(0, primary.size - swapMode.reservedPages * primary.pageSize)
    }

    public var primaryImage: SlotImage? { SlotImage(in: primary) }
    public var secondaryImage: SlotImage? { SlotImage(in: secondary) }

    /// `boot_set_next` on the secondary slot (`boot_request_upgrade`): swap it in at the next boot,
    /// for a test or for good. The caller (image management) decides whether that is allowed.
    public mutating func requestUpgrade(permanent: Bool) {
        swapType = permanent ? .permanent : .test
    }

    /// `boot_write_img_confirmed` on the running image: cancels a pending revert.
    public mutating func confirmRunningImage() {
        if swapType == .revert { swapType = .none }
    }

    /// Reset: what MCUboot does before it jumps to the application. Returns what happened and how
    /// long the device is away.
    public mutating func boot() -> BootReport {
        var duration = startupTime
        let outcome: BootReport.Outcome
        switch swapType {
        case .none:
            outcome = .normal
        case .test, .permanent:
            let permanent = swapType == .permanent
            if let reason = secondaryRejection() {
                duration += secondary.eraseAll()
                swapType = .none
                outcome = .rejected(reason: reason)
            } else {
                duration += swapSlots()
                swapType = permanent ? .none : .revert
                outcome = .swapped(permanent: permanent)
            }
        case .revert:
            duration += swapSlots()
            swapType = .none
            outcome = .reverted
        }
        return BootReport(outcome: outcome, duration: duration, running: primaryImage)
    }

    /// Why MCUboot would refuse the secondary image, or nil if it boots.
    public func secondaryRejection() -> String? {
        let report: VerificationReport
        do {
            report = try ImageVerifier.verify(bytes: secondary.bytes, key: key)
        } catch {
            return error.description
        }
        for check in [report.hash, report.signature, report.keyHash] {
            switch check {
            case .passed: continue
            case .failed(let error): return error.description
            // bootutil has no "not checked": a missing KEYHASH means no known key signed it.
            case .notChecked(let reason): return reason
            }
        }
        return nil
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

/// The bootloader cannot be built as configured.
public enum BootloaderSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    case imageTooLarge(size: Int, maximum: Int)
    case runningImageInvalid

    public var description: String {
        switch self {
        case .imageTooLarge(let size, let maximum):
            return "the running image (\(size) bytes) does not fit the slot (at most \(maximum) bytes); choose a larger slot_size"
        case .runningImageInvalid:
            return "the running image is not a valid MCUboot image with a SHA256 TLV"
        }
    }
}
