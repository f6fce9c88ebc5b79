/// SMP-level return codes (`mcumgr_err_t`, Zephyr mgmt_defines.h): the v1 `rc` field, and the plain
/// `rc` a v2 server still sends for errors that belong to no group. Raw values are the wire values.
/// Codes 256 and up are application-defined and stay raw in `SMPError`.
public enum MCUmgrError: Int64, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ok = 0
    case unknown = 1
    case noMemory = 2
    case invalidValue = 3
    case timeout = 4
    case noEntry = 5
    case badState = 6
    case responseTooLarge = 7
    case notSupported = 8
    case corrupt = 9
    case busy = 10
    case accessDenied = 11
    case protocolTooOld = 12
    case protocolTooNew = 13

    /// The C constant, so a report can be matched with Zephyr's source and logs.
    public var name: String {
        switch self {
        case .ok: return "MGMT_ERR_EOK"
        case .unknown: return "MGMT_ERR_EUNKNOWN"
        case .noMemory: return "MGMT_ERR_ENOMEM"
        case .invalidValue: return "MGMT_ERR_EINVAL"
        case .timeout: return "MGMT_ERR_ETIMEOUT"
        case .noEntry: return "MGMT_ERR_ENOENT"
        case .badState: return "MGMT_ERR_EBADSTATE"
        case .responseTooLarge: return "MGMT_ERR_EMSGSIZE"
        case .notSupported: return "MGMT_ERR_ENOTSUP"
        case .corrupt: return "MGMT_ERR_ECORRUPT"
        case .busy: return "MGMT_ERR_EBUSY"
        case .accessDenied: return "MGMT_ERR_EACCESSDENIED"
        case .protocolTooOld: return "MGMT_ERR_UNSUPPORTED_TOO_OLD"
        case .protocolTooNew: return "MGMT_ERR_UNSUPPORTED_TOO_NEW"
        }
    }

    /// What the device meant, in a sentence.
    public var description: String {
        switch self {
        case .ok: return "No error."
        case .unknown: return "The device reported an unknown error."
        case .noMemory: return "The device ran out of memory (often: the response did not fit its buffer)."
        case .invalidValue: return "The device rejected a value in the request as invalid."
        case .timeout: return "The operation timed out on the device."
        case .noEntry: return "The requested item does not exist on the device."
        case .badState: return "The device's current state does not allow this command."
        case .responseTooLarge: return "The response would be larger than the device can send."
        case .notSupported: return "The device does not support this command (it may be compiled out)."
        case .corrupt: return "The device found the request or its data corrupt."
        case .busy: return "The device is busy with another command."
        case .accessDenied: return "The device denied access to this command or resource."
        case .protocolTooOld: return "The device does not support this SMP version: the request's version is too old."
        case .protocolTooNew: return "The device does not support this SMP version: the request's version is too new."
        }
    }
}
