import DFUCore

/// What MCUboot's serial recovery does with one image's slots (boot_serial.c): it validates both
/// for its image list, and writes uploads straight into the primary slot, erasing as it goes.
extension MCUbootImagePair {
    /// Why MCUboot would not accept the image in `slot` (`bootutil_img_validate`: header magic,
    /// SHA256 TLV, signature by the device's key), or nil if it validates. The synthetic factory
    /// image, unsigned, counts as validated, as everywhere in the model. In the primary slot an
    /// encrypted image is checked as it lies (recovery clears the flag and validates the bytes),
    /// so it fails; only the secondary is decrypted first.
    func validationFailure(ofSlot number: Int, key: PublicKey, decryptionKey: ImageDecryptionKey?) -> String? {
        guard let held = image(inSlot: number) else { return "no image (erased, or not a whole MCUboot image)" }
        let slot = self.slot(number)
        if validatedHashes.contains(held.hash), Self.hashMatches(slot) { return nil }
        switch BootValidation.check(slot.bytes, key: key, decryptionKey: number == 0 ? nil : decryptionKey,
                                    mode: mode, primarySize: maxImageSize(mode)) {
        case .failure(let rejection): return rejection.reason
        case .success(.overwrite(_, decompressed: true)): return "the image is compressed: it cannot run from the slot"
        case .success: return nil
        }
    }

    /// Whether the SHA-256 of the slot's hashed region is its SHA256 TLV: a slot half overwritten
    /// can still show a validated image's TLV where the new header points.
    private static func hashMatches(_ slot: FlashSlot) -> Bool {
        guard let image = try? MCUbootImage(bytes: slot.bytes), let stored = image.sha256TLV,
              let digest = try? SHA256.hash(image.bytes[image.hashedRegion]) else { return false }
        return digest == stored
    }

    /// Erases the pages `range` touches in the primary slot. Erasing its last page erases the
    /// trailer with it: a revert pending for a running test image is gone (the slot no longer
    /// says copy-done without image-ok).
    mutating func erasePrimary(_ range: Range<Int>) -> Duration {
        let time = primary.erase(range)
        let trailerPage = primary.size - primary.pageSize
        if range.upperBound > trailerPage, range.lowerBound < primary.size {
            if mode.hasEqualSlots {
                trailers[0] = XIPTrailer()
            } else if swapType == .revert {
                swapType = .none
            }
        }
        return time
    }

    /// Programs `data` at `offset` of the primary slot.
    mutating func writePrimary(_ data: some Collection<UInt8>, at offset: Int) -> Result<Duration, FlashError> {
        primary.write(data, at: offset)
    }
}
