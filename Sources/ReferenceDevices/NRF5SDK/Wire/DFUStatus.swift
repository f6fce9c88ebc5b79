/// Control Point result codes (nrf_dfu_req_handler.h `nrf_dfu_result_t`; 0x06 and 0x09 are unused).
public enum DFUResultCode: UInt8, Sendable, Hashable {
    case success = 0x01
    case opCodeNotSupported = 0x02
    case invalidParameter = 0x03
    case insufficientResources = 0x04
    case invalidObject = 0x05
    case unsupportedType = 0x07
    case operationNotPermitted = 0x08
    case operationFailed = 0x0A
    case extendedError = 0x0B
}

/// The byte after `0B` (nrf_dfu_handling_error.h `nrf_dfu_ext_error_code_t`; only the codes the SDK
/// sends are listed).
public enum DFUExtendedError: UInt8, Sendable, Hashable {
    case initCommandInvalid = 0x04
    case firmwareVersionFailure = 0x05
    case hardwareVersionFailure = 0x06
    case softDeviceVersionFailure = 0x07
    case signatureMissing = 0x08
    case wrongHashType = 0x09
    case wrongSignatureType = 0x0B
    case verificationFailed = 0x0C
    case insufficientSpace = 0x0D
}

/// What a request handler decided: success, a plain result code, or an extended error (the SDK's
/// `EXT_ERR(x)` values, turned into `0B x` by `ext_err_code_handle`).
enum DFUStatus: Error, Sendable, Hashable {
    case success
    case failed(DFUResultCode)
    case extended(DFUExtendedError)

    var isSuccess: Bool { self == .success }

    /// Result byte, then the extended code when there is one (nrf_dfu_ble.c
    /// `ble_dfu_req_handler_callback`, `response_ext_err_payload_add`).
    var bytes: [UInt8] {
        switch self {
        case .success: return [DFUResultCode.success.rawValue]
        case .failed(let code): return [code.rawValue]
        case .extended(let ext): return [DFUResultCode.extendedError.rawValue, ext.rawValue]
        }
    }
}

/// Control Point op codes (nrf_dfu_req_handler.h `nrf_dfu_op_t`).
enum DFUOpCode {
    static let protocolVersion: UInt8 = 0x00
    static let create: UInt8 = 0x01
    static let setReceiptNotification: UInt8 = 0x02
    static let calculateChecksum: UInt8 = 0x03
    static let execute: UInt8 = 0x04
    static let select: UInt8 = 0x06
    static let mtuGet: UInt8 = 0x07
    static let write: UInt8 = 0x08
    static let ping: UInt8 = 0x09
    static let hardwareVersion: UInt8 = 0x0A
    static let firmwareVersion: UInt8 = 0x0B
    static let abort: UInt8 = 0x0C
    static let response: UInt8 = 0x60
}
