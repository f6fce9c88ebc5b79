/// What the simulated bootloader answers a Control Point request with: the result byte of
/// `60 <op> <result>` and, for `0x0B`, the extended error byte after it. Numbers as the nRF5 SDK's
/// `nrf_dfu_result_t` and `nrf_dfu_ext_error_code_t` (nordic-secure-dfu.md §2); the simulator keeps
/// its own table so it cannot share a mistake with the client's.
public enum NordicDFUResult: Sendable, Hashable, CustomStringConvertible {
    case success
    case opCodeNotSupported
    case invalidParameter
    case insufficientResources
    case invalidObject
    case unsupportedType
    case operationNotPermitted
    case operationFailed
    case extended(NordicDFUExtendedError)

    /// The result byte.
    public var code: UInt8 {
        switch self {
        case .success: return 0x01
        case .opCodeNotSupported: return 0x02
        case .invalidParameter: return 0x03
        case .insufficientResources: return 0x04
        case .invalidObject: return 0x05
        case .unsupportedType: return 0x07
        case .operationNotPermitted: return 0x08
        case .operationFailed: return 0x0A
        case .extended: return 0x0B
        }
    }

    public var description: String {
        if case .extended(let error) = self { return "extended error \(error)" }
        return "result 0x\(String(code, radix: 16))"
    }
}
