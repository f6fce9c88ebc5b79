extension MCUmgrSerial {
    /// What MCUboot's `boot_go` did on one boot (swap modes, one image), as the model computes it.
    struct BootResult: Equatable {
        var swap: SwapType
        /// The secondary slot held an image that failed validation and was erased.
        var erasedInvalidSecondary = false
        /// The image in the primary slot passed validation and is started.
        var primary: BootImage?
    }

    /// loader.c `boot_validated_swap_type` + `boot_perform_update` + `boot_swap_image`, modelled by
    /// their outcome rather than the swap algorithm:
    /// - the swap type comes from both trailers (`swapType`);
    /// - for test, perm and revert the secondary image is validated first (`boot_validate_slot`);
    ///   an erased header or a failed check erases the secondary slot and nothing is swapped
    ///   (FIH_NO_BOOTABLE_IMAGE → BOOT_SWAP_TYPE_NONE);
    /// - a swap exchanges the slots; the primary trailer then has magic and copy_done, and
    ///   image_ok for perm and revert (`swap_set_image_ok`, `swap_set_copy_done`); the secondary
    ///   trailer is left erased;
    /// - the primary image is validated before it is started (`MCUBOOT_VALIDATE_PRIMARY_SLOT`, y).
    static func bootGo(primary: inout FlashSlot, secondary: inout FlashSlot) -> BootResult {
        var swap = swapType(primary: primary.trailer, secondary: secondary.trailer)
        var erased = false
        if swap != .none {
            let header = ImageHeader(secondary.bytes)
            let headerErased = header?.magic == ImageHeader.erasedMagic
            let nonBootable = (header?.flags ?? 0) & ImageHeader.nonBootableFlag != 0
            if headerErased || nonBootable {
                secondary.trailer = .unset
                swap = .none
            } else if bootValidate(secondary.bytes) == nil {
                secondary.eraseAll()
                erased = true
                swap = .none
            }
        }
        switch swap {
        case .none:
            break
        case .test, .perm, .revert:
            primary.exchangeContents(with: &secondary)
            primary.trailer = SwapTrailer(magicGood: true, imageOK: swap != .test, copyDone: true)
            secondary.trailer = .unset
        }
        return BootResult(swap: swap, erasedInvalidSecondary: erased, primary: bootValidate(primary.bytes))
    }
}
