extension MCUmgrSerial {
    /// `enum mcumgr_err_t` (Zephyr mgmt/mgmt_defines.h; MCUboot boot_serial_priv.h has the subset
    /// it uses): the "rc" of an SMP response.
    enum MgmtError: Int32 {
        case ok = 0, unknown = 1, noMemory = 2, invalid = 3, timeout = 4, noEntry = 5, badState = 6
        case messageSize = 7, notSupported = 8, corrupt = 9, busy = 10, accessDenied = 11
        case unsupportedTooOld = 12, unsupportedTooNew = 13
    }

    /// `enum img_mgmt_ret_code_t` (Zephyr img_mgmt.h): the group error of the image group (1).
    enum ImageError: UInt16, Error {
        case ok = 0, unknown, flashConfigQueryFail, noImage, noTLVs, invalidTLV, tlvMultipleHashesFound
        case tlvInvalidSize, hashNotFound, noFreeSlot, flashOpenFailed, flashReadFailed, flashWriteFailed
        case flashEraseFailed, invalidSlot, noFreeMemory, flashContextAlreadySet, flashContextNotSet
        case flashAreaDeviceNull, invalidPageOffset, invalidOffset, invalidLength, invalidImageHeader
        case invalidImageHeaderMagic, invalidHash, invalidFlashAddress, versionGetFailed
        case currentVersionIsNewer, imageAlreadyPending, invalidImageVectorTable, invalidImageTooLarge
        case invalidImageDataOverrun, imageConfirmationDenied, imageSettingTestToActiveDenied
        case activeSlotNotKnown

        /// img_mgmt.c `img_mgmt_translate_error_code`: what an SMP version 0 ("original protocol")
        /// client gets as "rc" instead of the group error.
        var legacy: MgmtError {
            switch self {
            case .noImage, .noTLVs: return .noEntry
            case .noFreeSlot, .currentVersionIsNewer, .imageAlreadyPending: return .badState
            case .noFreeMemory: return .noMemory
            case .invalidSlot, .invalidPageOffset, .invalidOffset, .invalidLength, .invalidImageHeader,
                 .invalidHash, .invalidFlashAddress: return .invalid
            default: return .unknown
            }
        }
    }
}
