import Transport

/// Byte 3 of a notification whose result is `extendedError` (nordic-secure-dfu.md §2, §4.3): why
/// the bootloader refused, mostly an init packet it will not accept. Unknown codes (e.g. 0x0E,
/// which only pc-nrfutil names) stay as raw values.
public enum NordicExtendedError: Sendable, Hashable, CustomStringConvertible {
    /// 0x00: the bootloader set no extended code (its own implementation problem).
    case noError
    case invalidErrorCode
    case wrongCommandFormat
    case unknownCommand
    /// Bad firmware type, or a missing size or hardware version in the init packet.
    case initCommandInvalid
    /// The update is older than the installed firmware (downgrade prevention).
    case firmwareVersionTooLow
    case hardwareVersionMismatch
    /// The installed SoftDevice is not in the init packet's `sd_req` list.
    case softDeviceRequirementNotMet
    case signatureMissing
    /// Only SHA-256 is accepted.
    case wrongHashType
    case hashFailed
    case wrongSignatureType
    /// The received image's hash differs from the init packet's.
    case verificationFailed
    case insufficientSpace
    case firmwareAlreadyPresent
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0x00: self = .noError
        case 0x01: self = .invalidErrorCode
        case 0x02: self = .wrongCommandFormat
        case 0x03: self = .unknownCommand
        case 0x04: self = .initCommandInvalid
        case 0x05: self = .firmwareVersionTooLow
        case 0x06: self = .hardwareVersionMismatch
        case 0x07: self = .softDeviceRequirementNotMet
        case 0x08: self = .signatureMissing
        case 0x09: self = .wrongHashType
        case 0x0A: self = .hashFailed
        case 0x0B: self = .wrongSignatureType
        case 0x0C: self = .verificationFailed
        case 0x0D: self = .insufficientSpace
        case 0x0E: self = .firmwareAlreadyPresent
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .noError: return 0x00
        case .invalidErrorCode: return 0x01
        case .wrongCommandFormat: return 0x02
        case .unknownCommand: return 0x03
        case .initCommandInvalid: return 0x04
        case .firmwareVersionTooLow: return 0x05
        case .hardwareVersionMismatch: return 0x06
        case .softDeviceRequirementNotMet: return 0x07
        case .signatureMissing: return 0x08
        case .wrongHashType: return 0x09
        case .hashFailed: return 0x0A
        case .wrongSignatureType: return 0x0B
        case .verificationFailed: return 0x0C
        case .insufficientSpace: return 0x0D
        case .firmwareAlreadyPresent: return 0x0E
        case .unknown(let raw): return raw
        }
    }

    /// The upper-case name the CLI prints with exit 7, e.g. "FW VERSION TOO LOW".
    public var name: String {
        switch self {
        case .noError: return "NO ERROR"
        case .invalidErrorCode: return "INVALID ERROR CODE"
        case .wrongCommandFormat: return "WRONG COMMAND FORMAT"
        case .unknownCommand: return "UNKNOWN COMMAND"
        case .initCommandInvalid: return "INIT COMMAND INVALID"
        case .firmwareVersionTooLow: return "FW VERSION TOO LOW"
        case .hardwareVersionMismatch: return "HW VERSION MISMATCH"
        case .softDeviceRequirementNotMet: return "SD REQUIREMENT NOT MET"
        case .signatureMissing: return "SIGNATURE MISSING"
        case .wrongHashType: return "WRONG HASH TYPE"
        case .hashFailed: return "HASH FAILED"
        case .wrongSignatureType: return "WRONG SIGNATURE TYPE"
        case .verificationFailed: return "VERIFICATION FAILED"
        case .insufficientSpace: return "INSUFFICIENT SPACE"
        case .firmwareAlreadyPresent: return "FW ALREADY PRESENT"
        case .unknown: return "UNKNOWN EXTENDED ERROR"
        }
    }

    public var description: String { "\(name) (0x\(hexDigits(rawValue, width: 2)))" }
}
