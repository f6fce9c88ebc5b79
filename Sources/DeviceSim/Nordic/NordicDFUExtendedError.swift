import Transport

/// The extended error byte (`NRF_DFU_EXT_ERROR_*`), sent after result `0x0B`.
public enum NordicDFUExtendedError: UInt8, Sendable, Hashable, CustomStringConvertible {
    case noError = 0x00
    case invalidErrorCode = 0x01
    case wrongCommandFormat = 0x02
    case unknownCommand = 0x03
    case initCommandInvalid = 0x04
    case firmwareVersionFailure = 0x05
    case hardwareVersionFailure = 0x06
    case softDeviceVersionFailure = 0x07
    case signatureMissing = 0x08
    case wrongHashType = 0x09
    case hashFailed = 0x0A
    case wrongSignatureType = 0x0B
    case verificationFailed = 0x0C
    case insufficientSpace = 0x0D

    public var description: String { "0x" + hexDigits(rawValue, width: 2, uppercase: false) }
}
