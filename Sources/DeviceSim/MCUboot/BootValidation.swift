import DFUCore

/// What MCUboot makes of a pending secondary image at boot: refused (and why), or how it goes into
/// the primary slot. Validation is `bootutil_img_validate`'s, through `ImageVerifier` with the
/// device's key: SHA256 TLV, signature, KEYHASH, and for a compressed image the dry-run
/// decompression against DECOMP_SHA and DECOMP_SIGNATURE (sdk-mcuboot `image_validate.c`). An
/// encrypted image is decrypted first with the device's decryption key (`ImageDecryption`), as
/// MCUboot decrypts before it hashes; without that key MCUboot cannot validate it and refuses it.
enum BootValidation {
    enum Install: Sendable, Equatable {
        /// Swap modes: the slots are exchanged; an encrypted image goes in as this plaintext (MCUboot
        /// decrypts while it copies into the primary slot).
        case swap(decrypted: [UInt8]?)
        /// Overwrite-only: these bytes are written to the erased primary slot (the image itself, or
        /// for a compressed one the image decompressed as `boot_copy_region_decompress` writes it).
        case overwrite([UInt8], decompressed: Bool)
    }

    /// `primarySize`: what the primary slot holds, its trailer left out.
    static func check(_ slot: [UInt8], key: PublicKey, decryptionKey: ImageDecryptionKey?,
                      mode: MCUbootSwapMode, primarySize: Int) -> Result<Install, Rejection> {
        let report: VerificationReport
        var image: MCUbootImage
        var plaintext: [UInt8]?
        do {
            image = try MCUbootImage(bytes: slot)
            if image.header.flags.isEncrypted {
                guard let decryptionKey else {
                    return .failure(Rejection("the image is encrypted and the device holds no decryption key "
                                              + "(give the virtual device one: sim:enc_key=PRIV.pem, dfu sim --enc-key)"))
                }
                switch ImageDecryption.decrypt(image, with: decryptionKey) {
                case .failure(let error): return .failure(Rejection(error.description))
                case .success(let bytes):
                    image = try MCUbootImage(bytes: bytes)
                    plaintext = bytes
                }
            }
            report = try ImageVerifier.verify(bytes: image.bytes, key: key, decrypted: plaintext != nil)
        } catch {
            return .failure(Rejection(error.description))
        }
        for check in report.checks {
            switch check {
            case .passed: continue
            case .failed(let error): return .failure(Rejection(error.description))
            // bootutil has no "not checked": a missing KEYHASH means no known key signed it.
            case .notChecked(let reason): return .failure(Rejection(reason))
            case .notSigned: return .failure(Rejection("the image is not signed"))
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
            return .success(.swap(decrypted: plaintext.map { Array($0[0 ..< image.imageLength]) }))
        }
        guard let compression else { return .success(.overwrite(Array(image.bytes[0 ..< image.imageLength]), decompressed: false)) }
        switch InstalledImage.decompressing(image, compression) {
        case .success(let installed):
            // sdk-mcuboot `boot_is_compressed_header_valid`: the decompressed image must fit the primary slot.
            guard installed.count < primarySize else {
                return .failure(Rejection("the decompressed image (\(installed.count) bytes) does not fit the primary slot (\(primarySize) bytes)"))
            }
            return .success(.overwrite(installed, decompressed: true))
        case .failure(let error): return .failure(Rejection(ImageError.decompressionFailed(error).description))
        }
    }

    /// Why MCUboot refuses the image, in the words of the check that failed.
    struct Rejection: Error, Sendable, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
