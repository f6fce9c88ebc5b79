import DFUCore

/// MCUboot with two slots per updatable image (one image, or an nRF5340's two), as the application
/// and the boot ROM see it: in swap mode (below), or in direct-XIP (`MCUbootImagePair+DirectXIP`).
///
/// Flash contents are real bytes (`FlashSlot`); the trailer is modelled by its meaning, one
/// `MCUbootSwapType`, instead of magic and flag bytes at the end of each slot. `boot()` does what
/// MCUboot does at reset (design.md "Boot swap types", "Integrity check"):
/// - `.test` / `.permanent`: validate the secondary image the way `bootutil_img_validate` does
///   (SHA256 TLV over header, body and protected TLVs; KEYHASH must name the device's key; a
///   signature TLV of that key's type must verify). Valid: swap the slots (slot 0 new, slot 1 old);
///   a test swap leaves the new image unconfirmed, a permanent one confirmed. Invalid: erase the
///   secondary slot and boot the old image, as `boot_validate_slot` does.
/// - overwrite-only (`swapMode` `.overwriteOnly`): a valid image is written over the primary slot
///   instead (decompressed first when it is compressed, as only overwrite-only MCUboot builds can)
///   and the secondary slot's header erased; nothing can revert.
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
    /// The private key MCUboot decrypts encrypted images with (`MCUBOOT_ENCRYPT_*`); nil: a build
    /// without encryption support, which refuses encrypted images.
    public let decryptionKey: ImageDecryptionKey?
    /// From the end of the bootloader to the application advertising again.
    public var startupTime: Duration
    /// One slot pair per updatable image; image 0 (the application) always exists, image 1 is an
    /// nRF5340's network core when the device has two.
    public internal(set) var images: [MCUbootImagePair]

    /// Two erased slots of `slotSize` per image with the running images programmed into the
    /// primary ones (as a factory programmer would: confirmed, no trailer): `runningImage` for
    /// image 0, then one pair for each of `otherImages`.
    public init(slotSize: Int, pageSize: Int = FlashSlot.defaultPageSize, timing: FlashTiming = .nRF52840,
                key: PublicKey, decryptionKey: ImageDecryptionKey? = nil, swapMode: MCUbootSwapMode = .withoutScratch,
                startupTime: Duration = .milliseconds(300), runningImage: [UInt8],
                otherImages: [[UInt8]] = []) throws(BootloaderSetupError) {
        self.key = key
        self.decryptionKey = decryptionKey
        self.swapMode = swapMode
        self.startupTime = startupTime
        images = []
        for running in [runningImage] + otherImages {
            var pair = MCUbootImagePair(primary: FlashSlot(size: slotSize, pageSize: pageSize, timing: timing),
                                        secondary: FlashSlot(size: slotSize, pageSize: pageSize, timing: timing),
                                        mode: swapMode)
            let maximum = pair.maxImageSize(swapMode)
            guard running.count <= maximum else { throw .imageTooLarge(size: running.count, maximum: maximum) }
            guard case .success = pair.primary.write(running, at: 0), let factory = pair.primaryImage else {
                throw .runningImageInvalid
            }
            pair.validatedHashes.insert(factory.hash)
            images.append(pair)
        }
    }

    // Image 0's slots, as single-image code reads them. `images` is never empty (init).
    public var primary: FlashSlot { images[0].primary }
    public var secondary: FlashSlot { images[0].secondary }
    public var swapType: MCUbootSwapType { images[0].swapType }
    public var primaryImage: SlotImage? { images[0].primaryImage }
    public var secondaryImage: SlotImage? { images[0].secondaryImage }
    /// Image 0's running image: slot 0's in swap modes, either slot's in direct-XIP.
    public var runningImage: SlotImage? { images[0].runningImage }
    /// Image 0's image in the slot uploads go to (the secondary; direct-XIP: the inactive one).
    public var uploadedImage: SlotImage? { images[0].image(inSlot: images[0].uploadSlot) }

    /// The largest image a slot takes: the slot minus what MCUboot reserves at its end.
    public var maxImageSize: Int { images[0].maxImageSize(swapMode) }

    /// `boot_set_next` on image 0's secondary slot (`boot_request_upgrade`): swap it in at the next
    /// boot, for a test or for good. The caller (image management) decides whether that is allowed.
    public mutating func requestUpgrade(permanent: Bool) {
        images[0].requestUpgrade(permanent: permanent)
    }

    /// `boot_write_img_confirmed` on the running image: cancels a pending revert.
    public mutating func confirmRunningImage() {
        images[0].confirmRunningImage()
    }

    /// Reset: what MCUboot does before it jumps to the application, for every image in turn (a
    /// multi-image MCUboot installs every pending image in the same boot). Returns what happened
    /// and how long the device is away.
    public mutating func boot() -> BootReport {
        var duration = startupTime
        var outcomes: [BootReport.Outcome] = []
        for index in images.indices {
            let (outcome, time) = images[index].boot(key: key, decryptionKey: decryptionKey, mode: swapMode)
            outcomes.append(outcome)
            duration += time
        }
        var report = BootReport(outcome: outcomes.first ?? .normal, duration: duration, running: runningImage)
        report.otherImages = Array(outcomes.dropFirst())
        return report
    }

    /// Why MCUboot would refuse image 0's secondary image, or nil if it boots.
    public func secondaryRejection() -> String? {
        images[0].secondaryRejection(key: key, decryptionKey: decryptionKey, mode: swapMode)
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
