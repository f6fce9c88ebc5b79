extension MCUmgrSerial {
    /// The part of an MCUboot image trailer the model keeps (bootutil_public.c
    /// `struct boot_swap_state`): magic, `image_ok`, `copy_done`. Flags are set or unset; the model
    /// never produces a bad magic or a bad flag.
    struct SwapTrailer: Equatable {
        var magicGood = false
        var imageOK = false
        var copyDone = false

        static let unset = SwapTrailer()
    }

    /// `BOOT_SWAP_TYPE_*`.
    enum SwapType: Equatable {
        case none, test, perm, revert
    }

    /// bootutil_public.c `boot_swap_tables` and `boot_swap_type_multi` (the table without
    /// swap-using-offset's extra row): the first row that matches decides.
    /// - secondary magic good, secondary image_ok unset → test
    /// - secondary magic good, secondary image_ok set → perm
    /// - primary magic good, primary image_ok unset, primary copy_done set → revert
    static func swapType(primary: SwapTrailer, secondary: SwapTrailer) -> SwapType {
        if secondary.magicGood, !secondary.imageOK { return .test }
        if secondary.magicGood, secondary.imageOK { return .perm }
        if primary.magicGood, !primary.imageOK, primary.copyDone { return .revert }
        return .none
    }

    /// bootutil_public.c `boot_set_next` (swap modes): the active slot can only be confirmed
    /// (image_ok written once its magic is good); another slot gets magic, and image_ok when
    /// confirmed (a permanent request). A slot whose magic is already good is left alone.
    static func bootSetNext(_ trailer: inout SwapTrailer, active: Bool, confirm: Bool) {
        let confirm = active || confirm
        if trailer.magicGood {
            if active, !trailer.imageOK { trailer.imageOK = true }
        } else if !active {
            trailer.magicGood = true
            if confirm { trailer.imageOK = true }
        }
    }
}
