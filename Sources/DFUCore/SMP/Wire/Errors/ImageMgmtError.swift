/// Image management group errors (`img_mgmt_err_code_t`, Zephyr img_mgmt.h): the `rc` of a v2
/// `err {group: 1, rc}`. Raw values are the wire values; older Zephyr called them `IMG_MGMT_RET_RC_*`
/// with the same numbers up to 29; 34 exists only in the newest Zephyr.
public enum ImageMgmtError: Int64, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ok = 0
    case unknown = 1
    case flashConfigQueryFailed = 2
    case noImage = 3
    case noTLVs = 4
    case invalidTLV = 5
    case multipleHashTLVs = 6
    case invalidTLVSize = 7
    case hashNotFound = 8
    case noFreeSlot = 9
    case flashOpenFailed = 10
    case flashReadFailed = 11
    case flashWriteFailed = 12
    case flashEraseFailed = 13
    case invalidSlot = 14
    case noFreeMemory = 15
    case flashContextAlreadySet = 16
    case flashContextNotSet = 17
    case flashAreaDeviceNull = 18
    case invalidPageOffset = 19
    case invalidOffset = 20
    case invalidLength = 21
    case invalidImageHeader = 22
    case invalidImageHeaderMagic = 23
    case invalidHash = 24
    case invalidFlashAddress = 25
    case versionGetFailed = 26
    case currentVersionIsNewer = 27
    case imageAlreadyPending = 28
    case invalidImageVectorTable = 29
    case imageTooLarge = 30
    case imageDataOverrun = 31
    case imageConfirmationDenied = 32
    case settingTestToActiveDenied = 33
    case activeSlotNotKnown = 34

    /// The C constant without its `IMG_MGMT_ERR_` prefix.
    public var name: String {
        switch self {
        case .ok: return "OK"
        case .unknown: return "UNKNOWN"
        case .flashConfigQueryFailed: return "FLASH_CONFIG_QUERY_FAIL"
        case .noImage: return "NO_IMAGE"
        case .noTLVs: return "NO_TLVS"
        case .invalidTLV: return "INVALID_TLV"
        case .multipleHashTLVs: return "TLV_MULTIPLE_HASHES_FOUND"
        case .invalidTLVSize: return "TLV_INVALID_SIZE"
        case .hashNotFound: return "HASH_NOT_FOUND"
        case .noFreeSlot: return "NO_FREE_SLOT"
        case .flashOpenFailed: return "FLASH_OPEN_FAILED"
        case .flashReadFailed: return "FLASH_READ_FAILED"
        case .flashWriteFailed: return "FLASH_WRITE_FAILED"
        case .flashEraseFailed: return "FLASH_ERASE_FAILED"
        case .invalidSlot: return "INVALID_SLOT"
        case .noFreeMemory: return "NO_FREE_MEMORY"
        case .flashContextAlreadySet: return "FLASH_CONTEXT_ALREADY_SET"
        case .flashContextNotSet: return "FLASH_CONTEXT_NOT_SET"
        case .flashAreaDeviceNull: return "FLASH_AREA_DEVICE_NULL"
        case .invalidPageOffset: return "INVALID_PAGE_OFFSET"
        case .invalidOffset: return "INVALID_OFFSET"
        case .invalidLength: return "INVALID_LENGTH"
        case .invalidImageHeader: return "INVALID_IMAGE_HEADER"
        case .invalidImageHeaderMagic: return "INVALID_IMAGE_HEADER_MAGIC"
        case .invalidHash: return "INVALID_HASH"
        case .invalidFlashAddress: return "INVALID_FLASH_ADDRESS"
        case .versionGetFailed: return "VERSION_GET_FAILED"
        case .currentVersionIsNewer: return "CURRENT_VERSION_IS_NEWER"
        case .imageAlreadyPending: return "IMAGE_ALREADY_PENDING"
        case .invalidImageVectorTable: return "INVALID_IMAGE_VECTOR_TABLE"
        case .imageTooLarge: return "INVALID_IMAGE_TOO_LARGE"
        case .imageDataOverrun: return "INVALID_IMAGE_DATA_OVERRUN"
        case .imageConfirmationDenied: return "IMAGE_CONFIRMATION_DENIED"
        case .settingTestToActiveDenied: return "IMAGE_SETTING_TEST_TO_ACTIVE_DENIED"
        case .activeSlotNotKnown: return "ACTIVE_SLOT_NOT_KNOWN"
        }
    }

    public var description: String {
        switch self {
        case .ok: return "No error."
        case .unknown: return "The device reported an unknown image management error."
        case .flashConfigQueryFailed: return "The device could not query its flash area configuration."
        case .noImage: return "There is no image in the slot."
        case .noTLVs: return "The image in the slot has no TLVs."
        case .invalidTLV: return "The image in the slot has a TLV with an invalid type or length."
        case .multipleHashTLVs: return "The image in the slot has more than one hash TLV."
        case .invalidTLVSize: return "The image in the slot has a TLV area of invalid size."
        case .hashNotFound: return "No slot holds an image with the given hash, or the image has no hash TLV."
        case .noFreeSlot: return "There is no free slot for the image (the secondary slot is pending or holds the revert image)."
        case .flashOpenFailed: return "The device could not open the flash area."
        case .flashReadFailed: return "The device could not read flash."
        case .flashWriteFailed: return "The device could not write flash."
        case .flashEraseFailed: return "The device could not erase flash."
        case .invalidSlot: return "The given slot is not valid."
        case .noFreeMemory: return "The device ran out of heap memory."
        case .flashContextAlreadySet: return "The device's flash context is already set."
        case .flashContextNotSet: return "The device's flash context is not set."
        case .flashAreaDeviceNull: return "The flash area has no device behind it."
        case .invalidPageOffset: return "The offset for a page number is invalid."
        case .invalidOffset: return "The upload request has no offset, which is required."
        case .invalidLength: return "The first upload request has no image length, which is required."
        case .invalidImageHeader: return "The first upload chunk is smaller than an image header."
        case .invalidImageHeaderMagic: return "The image header magic is not MCUboot's."
        case .invalidHash: return "The hash in the request is not valid (it must be 32 bytes)."
        case .invalidFlashAddress: return "The image's load address does not match the slot's flash address."
        case .versionGetFailed: return "The device could not read the running application's version."
        case .currentVersionIsNewer: return "The running application is newer than the uploaded image."
        case .imageAlreadyPending: return "Another image is already pending for the next boot."
        case .invalidImageVectorTable: return "The image's vector table is invalid."
        case .imageTooLarge: return "The image is too large for the slot."
        case .imageDataOverrun: return "More data was sent than the declared image length."
        case .imageConfirmationDenied: return "The device denied confirming this image."
        case .settingTestToActiveDenied: return "The active slot cannot be marked for test."
        case .activeSlotNotKnown: return "The device cannot tell which slot is active."
        }
    }

    /// The `mcumgr_err_t` a v1 request gets for this error (Zephyr `img_mgmt_translate_error_code`).
    public var legacyCode: MCUmgrError {
        switch self {
        case .ok: return .ok
        case .noImage, .noTLVs: return .noEntry
        case .noFreeSlot, .currentVersionIsNewer, .imageAlreadyPending: return .badState
        case .noFreeMemory: return .noMemory
        case .invalidSlot, .invalidPageOffset, .invalidOffset, .invalidLength, .invalidImageHeader,
             .invalidHash, .invalidFlashAddress:
            return .invalidValue
        default: return .unknown
        }
    }
}
