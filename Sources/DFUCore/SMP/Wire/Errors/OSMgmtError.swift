/// OS management group errors (`os_mgmt_err_code_t`, Zephyr os_mgmt.h): the `rc` of a v2
/// `err {group: 0, rc}`. Raw values are the wire values.
public enum OSMgmtError: Int64, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ok = 0
    case unknown = 1
    case invalidFormat = 2
    case queryYieldsNoAnswer = 3
    case rtcNotSet = 4
    case rtcCommandFailed = 5
    case queryResponseValueNotValid = 6

    /// The C constant without its `OS_MGMT_ERR_` prefix.
    public var name: String {
        switch self {
        case .ok: return "OK"
        case .unknown: return "UNKNOWN"
        case .invalidFormat: return "INVALID_FORMAT"
        case .queryYieldsNoAnswer: return "QUERY_YIELDS_NO_ANSWER"
        case .rtcNotSet: return "RTC_NOT_SET"
        case .rtcCommandFailed: return "RTC_COMMAND_FAILED"
        case .queryResponseValueNotValid: return "QUERY_RESPONSE_VALUE_NOT_VALID"
        }
    }

    public var description: String {
        switch self {
        case .ok: return "No error."
        case .unknown: return "The device reported an unknown OS management error."
        case .invalidFormat: return "The format value in the request is not valid."
        case .queryYieldsNoAnswer: return "The device does not recognise the query."
        case .rtcNotSet: return "The device's real-time clock is not set."
        case .rtcCommandFailed: return "The device's real-time clock command failed."
        case .queryResponseValueNotValid: return "The query is recognised but the device has no valid value for it."
        }
    }

    /// The `mcumgr_err_t` a v1 request gets for this error (Zephyr `os_mgmt_translate_error_code`).
    public var legacyCode: MCUmgrError {
        switch self {
        case .ok: return .ok
        case .invalidFormat: return .invalidValue
        case .queryYieldsNoAnswer, .rtcNotSet: return .noEntry
        default: return .unknown
        }
    }
}
