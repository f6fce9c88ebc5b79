/// `FwType` of dfu-cc.proto: what an init packet says its firmware is.
public enum NordicFirmwareType: Sendable, Equatable, CustomStringConvertible {
    case application
    case softdevice
    case bootloader
    case softdeviceBootloader
    case externalApplication
    case unknown(UInt64)

    init(wire: UInt64) {
        switch wire {
        case 0: self = .application
        case 1: self = .softdevice
        case 2: self = .bootloader
        case 3: self = .softdeviceBootloader
        case 4: self = .externalApplication
        default: self = .unknown(wire)
        }
    }

    /// As `nrfutil pkg display` names it.
    public var description: String {
        switch self {
        case .application: return "APPLICATION"
        case .softdevice: return "SOFTDEVICE"
        case .bootloader: return "BOOTLOADER"
        case .softdeviceBootloader: return "SOFTDEVICE_BOOTLOADER"
        case .externalApplication: return "EXTERNAL_APPLICATION"
        case .unknown(let value): return "unknown (\(value))"
        }
    }
}

/// `HashType` of dfu-cc.proto. Secure DFU bootloaders accept only SHA-256.
public enum NordicHashType: Sendable, Equatable, CustomStringConvertible {
    case noHash, crc, sha128, sha256, sha512
    case unknown(UInt64)

    init(wire: UInt64) {
        switch wire {
        case 0: self = .noHash
        case 1: self = .crc
        case 2: self = .sha128
        case 3: self = .sha256
        case 4: self = .sha512
        default: self = .unknown(wire)
        }
    }

    public var description: String {
        switch self {
        case .noHash: return "NO_HASH"
        case .crc: return "CRC"
        case .sha128: return "SHA128"
        case .sha256: return "SHA256"
        case .sha512: return "SHA512"
        case .unknown(let value): return "unknown (\(value))"
        }
    }
}
