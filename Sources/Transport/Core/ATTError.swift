/// An ATT error code a device answers a request with (Core spec Vol 3 Part F §3.4.1.1). Write
/// commands and notifications have no response, so their errors never cross the link.
public struct ATTError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: UInt8

    public init(code: UInt8) { self.code = code }

    public static let readNotPermitted = ATTError(code: 0x02)
    public static let writeNotPermitted = ATTError(code: 0x03)
    public static let insufficientAuthentication = ATTError(code: 0x05)
    public static let requestNotSupported = ATTError(code: 0x06)
    public static let insufficientAuthorization = ATTError(code: 0x08)
    public static let insufficientEncryptionKeySize = ATTError(code: 0x0C)
    public static let invalidAttributeValueLength = ATTError(code: 0x0D)
    public static let unlikelyError = ATTError(code: 0x0E)
    public static let insufficientEncryption = ATTError(code: 0x0F)
    public static let insufficientResources = ATTError(code: 0x11)

    /// The device wants a more secure link for this (Core Vol 3 Part F §3.4.1.1), or, from BlueZ,
    /// 0x0E: the pairing BlueZ started by itself to raise security failed (bluez-dbus.md §9).
    public var asksForSecurity: Bool {
        [0x05, 0x08, 0x0C, 0x0E, 0x0F].contains(code)
    }

    public var description: String {
        let name: String
        switch code {
        case 0x02: name = "read not permitted"
        case 0x03: name = "write not permitted"
        case 0x05: name = "insufficient authentication"
        case 0x06: name = "request not supported"
        case 0x08: name = "insufficient authorization"
        case 0x0C: name = "insufficient encryption key size"
        case 0x0D: name = "invalid attribute value length"
        case 0x0E: name = "unlikely error"
        case 0x0F: name = "insufficient encryption"
        case 0x11: name = "insufficient resources"
        default: name = "error"
        }
        return "ATT \(name) (0x\(hexDigits(code, width: 2)))"
    }
}
