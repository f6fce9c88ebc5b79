import DFUCore

/// MCUboot's direct-XIP and RAM-load boot for one image (design.md "Equal slots (direct-xip)",
/// "RAM loading" and "Revert mechanism in direct-xip and ram-load mode"; bootutil loader.c
/// `boot_load_and_validate_images`, ram_load.c): nothing is moved between slots. Among the slots
/// that hold an image, the newest (by version; the primary on a tie) is tried:
/// - direct-XIP: an image linked for the other slot (ROM_FIXED with a load address that is not this
///   slot's, `boot_rom_address_check`) is skipped;
/// - with revert: an image without magic, or one that was booted once (copy_done) and never
///   confirmed (image_ok), is erased; otherwise copy_done is set the first time it is selected;
/// - RAM-load: an image without RAM_LOAD, or whose load address and size leave the executable RAM,
///   is erased (`boot_load_image_to_sram` failing);
/// - an image that fails validation (hash, signature, key hash) is erased;
/// then the next newest is tried. An image validated before is not validated again (the virtual
/// device starts from a synthetic unsigned image, as in swap mode the primary is not validated).
extension MCUbootImagePair {
    /// Where the slots are in flash, for the ROM_FIXED check: the primary at 0xc000 (after a
    /// 48 KiB MCUboot, Zephyr's nRF52840 DK layout), the secondary right after it.
    static let primaryAddress: UInt32 = 0xc000

    func address(ofSlot number: Int) -> UInt32 {
        Self.primaryAddress + (number == 0 ? 0 : UInt32(clamping: primary.size))
    }

    mutating func equalSlotsBoot(key: PublicKey) -> (BootReport.Outcome, Duration) {
        let before = activeSlot
        var duration: Duration = .zero
        var tried: Set<Int> = []
        var revertedTest = false
        var refusals: [String] = []
        while let candidate = newestUntried(excluding: tried) {
            tried.insert(candidate)
            let slot = self.slot(candidate)
            let header = try? MCUbootHeader(bytes: slot.bytes)
            if mode.isDirectXIP, let header, header.flags.contains(.romFixed), header.loadAddress != address(ofSlot: candidate) {
                continue // built for the other slot: skipped, not erased
            }
            if mode.revertsUnconfirmed {
                let trailer = trailers[candidate]
                if !trailer.magic || (trailer.copyDone && !trailer.imageOK) {
                    if trailer.magic { revertedTest = true } else { refusals.append("no trailer magic") }
                    duration += erase(candidate)
                    continue
                }
                trailers[candidate].copyDone = true
            }
            if mode.isRAMLoad, let held = image(inSlot: candidate), !Self.loadsIntoRAM(header, length: held.length),
               !validatedHashes.contains(held.hash) {
                refusals.append("not RAM-loadable (no RAM_LOAD flag, or a load address outside executable RAM)")
                duration += erase(candidate) // boot_remove_image_from_flash
                continue
            }
            if let held = image(inSlot: candidate), !validatedHashes.contains(held.hash) {
                // Run in place or from RAM: no decryption on the way (design.md, "Equal slots").
                if let reason = rejection(of: slot, key: key, decryptionKey: nil, mode: mode) {
                    refusals.append(reason)
                    duration += erase(candidate)
                    continue
                }
                validatedHashes.insert(held.hash)
            }
            activeSlot = candidate
            if candidate != before {
                return (.swapped(permanent: mode == .directXIP || trailers[candidate].imageOK), duration)
            }
            if revertedTest { return (.reverted, duration) }
            return (refusals.isEmpty ? .normal : .rejected(reason: refusals.joined(separator: "; ")), duration)
        }
        // Nothing bootable: MCUboot stops; the model keeps the slot it ran from.
        refusals.insert("no bootable image", at: 0)
        return (.rejected(reason: refusals.joined(separator: "; ")), duration)
    }

    /// The untried slot with the newest image (the primary wins a tie, as bootutil compares).
    private func newestUntried(excluding tried: Set<Int>) -> Int? {
        let held = [0, 1].filter { !tried.contains($0) }.compactMap { number in image(inSlot: number).map { (number, $0) } }
        return held.max { lhs, rhs in
            lhs.1.version != rhs.1.version ? lhs.1.version < rhs.1.version : lhs.0 > rhs.0
        }?.0
    }

    /// Where RAM-load images may run: an nRF52840's 256 KiB of RAM (`IMAGE_EXECUTABLE_RAM_START`
    /// and `_SIZE`).
    static let executableRAM: Range<UInt64> = 0x2000_0000 ..< 0x2004_0000

    /// `boot_load_image_to_sram` (ram_load.c): only a RAM_LOAD image whose load address and size fit
    /// the executable RAM is loaded.
    static func loadsIntoRAM(_ header: MCUbootHeader?, length: Int) -> Bool {
        guard let header, header.flags.contains(.ramLoad) else { return false }
        let start = UInt64(header.loadAddress)
        return executableRAM.contains(start) && start + UInt64(length) <= executableRAM.upperBound
    }

    private mutating func erase(_ number: Int) -> Duration {
        trailers[number] = XIPTrailer()
        return withSlot(number) { $0.eraseAll() }
    }
}
