import Transport

/// Byte 2 of a Control Point notification (nordic-secure-dfu.md §2). A code this table does not
/// know stays as its raw value: a new bootloader's code is reported, never a parse failure.
public enum NordicResultCode: Sendable, Hashable, CustomStringConvertible {
    case invalidCode
    case success
    case opcodeNotSupported
    case invalidParameter
    case insufficientResources
    case invalidObject
    /// Named only by the host libraries; SDK bootloaders report a bad signature as `invalidObject`.
    case signatureMismatch
    case unsupportedType
    case operationNotPermitted
    case operationFailed
    /// Byte 3 holds a `NordicExtendedError`.
    case extendedError
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0x00: self = .invalidCode
        case 0x01: self = .success
        case 0x02: self = .opcodeNotSupported
        case 0x03: self = .invalidParameter
        case 0x04: self = .insufficientResources
        case 0x05: self = .invalidObject
        case 0x06: self = .signatureMismatch
        case 0x07: self = .unsupportedType
        case 0x08: self = .operationNotPermitted
        case 0x0A: self = .operationFailed
        case 0x0B: self = .extendedError
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .invalidCode: return 0x00
        case .success: return 0x01
        case .opcodeNotSupported: return 0x02
        case .invalidParameter: return 0x03
        case .insufficientResources: return 0x04
        case .invalidObject: return 0x05
        case .signatureMismatch: return 0x06
        case .unsupportedType: return 0x07
        case .operationNotPermitted: return 0x08
        case .operationFailed: return 0x0A
        case .extendedError: return 0x0B
        case .unknown(let raw): return raw
        }
    }

    /// The name in log lines and error messages, e.g. "operation not permitted (0x08)".
    public var description: String {
        let name: String
        switch self {
        case .invalidCode: name = "invalid code"
        case .success: name = "success"
        case .opcodeNotSupported: name = "opcode not supported"
        case .invalidParameter: name = "invalid parameter"
        case .insufficientResources: name = "insufficient resources"
        case .invalidObject: name = "invalid object"
        case .signatureMismatch: name = "signature mismatch"
        case .unsupportedType: name = "unsupported type"
        case .operationNotPermitted: name = "operation not permitted"
        case .operationFailed: name = "operation failed"
        case .extendedError: name = "extended error"
        case .unknown: name = "unknown result"
        }
        return "\(name) (0x\(hexDigits(rawValue, width: 2)))"
    }
}
