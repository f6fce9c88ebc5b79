import DFUCore

/// What MCUboot makes of a pending secondary image at boot: refused (and why), or how it goes into
/// the primary slot. Validation is `bootutil_img_validate`'s, through `ImageVerifier` with the
/// device's key: SHA256 TLV, signature, KEYHASH, and for a compressed image the dry-run
/// decompression against DECOMP_SHA and DECOMP_SIGNATURE (sdk-mcuboot `image_validate.c`).
enum BootValidation {
    enum Install: Sendable, Equatable {
        /// Swap modes: the slots are exchanged as they are.
        case swap
        /// Overwrite-only: these bytes are written to the erased primary slot (the image itself, or
        /// for a compressed one the image decompressed as `boot_copy_region_decompress` writes it).
        case overwrite([UInt8], decompressed: Bool)
    }

    static func check(_ slot: [UInt8], key: PublicKey, mode: MCUbootSwapMode) -> Result<Install, Rejection> {
        let report: VerificationReport
        let image: MCUbootImage
        do {
            image = try MCUbootImage(bytes: slot)
            report = try ImageVerifier.verify(bytes: slot, key: key)
        } catch {
            return .failure(Rejection(error.description))
        }
        for check in report.checks {
            switch check {
            case .passed: continue
            case .failed(let error): return .failure(Rejection(error.description))
            // bootutil has no "not checked": a missing KEYHASH means no known key signed it.
            case .notChecked(let reason): return .failure(Rejection(reason))
            }
        }
        let compression: ImageCompression?
        do { compression = try ImageCompression(image: image) } catch { return .failure(Rejection(error.description)) }
        guard mode == .overwriteOnly else {
            // sdk-mcuboot's Kconfig: BOOT_DECOMPRESSION depends on BOOT_UPGRADE_ONLY.
            if compression != nil {
                return .failure(Rejection("the image is compressed, and MCUboot decompresses only in overwrite-only "
                                          + "builds (this one swaps; sim:swap=overwrite models one that overwrites)"))
            }
            return .success(.swap)
        }
        guard let compression else { return .success(.overwrite(Array(slot[0 ..< image.imageLength]), decompressed: false)) }
        switch InstalledImage.decompressing(image, compression) {
        case .success(let installed): return .success(.overwrite(installed, decompressed: true))
        case .failure(let error): return .failure(Rejection(ImageError.decompressionFailed(error).description))
        }
    }

    /// Why MCUboot refuses the image, in the words of the check that failed.
    struct Rejection: Error, Sendable, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
