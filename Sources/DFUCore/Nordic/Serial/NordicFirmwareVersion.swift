import Transport

/// The payload of a successful Firmware Version response over serial: the image type byte, then
/// version, start address and length as little-endian u32 (`response_send` in `nrf_dfu_serial.c`).
/// Image 0 is always the bootloader, then the SoftDevice if present, then the application; a
/// number past the last answers success with type 0xFF and zeros (`on_fw_version_request` in
/// `nrf_dfu_req_handler.c`).
public struct NordicFirmwareVersion: Sendable, Hashable, CustomStringConvertible {
    public static let encodedCount = 13

    /// `nrf_dfu_firmware_type_t` (`nrf_dfu_req_handler.h`); not the init packet's `FwType`, which
    /// numbers the same kinds differently.
    public enum ImageType: Sendable, Hashable, CustomStringConvertible {
        case softdevice
        case application
        case bootloader
        /// 0xFF: no image with that number.
        case none
        case unknown(UInt8)

        public init(rawValue: UInt8) {
            switch rawValue {
            case 0x00: self = .softdevice
            case 0x01: self = .application
            case 0x02: self = .bootloader
            case 0xFF: self = .none
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: UInt8 {
            switch self {
            case .softdevice: return 0x00
            case .application: return 0x01
            case .bootloader: return 0x02
            case .none: return 0xFF
            case .unknown(let raw): return raw
            }
        }

        public var description: String {
            switch self {
            case .softdevice: return "SoftDevice"
            case .application: return "application"
            case .bootloader: return "bootloader"
            case .none: return "no image"
            case .unknown(let raw): return "unknown image type 0x\(hexDigits(raw, width: 2))"
            }
        }
    }

    public var type: ImageType
    public var version: UInt32
    public var address: UInt32
    public var length: UInt32

    public init(type: ImageType, version: UInt32, address: UInt32, length: UInt32) {
        self.type = type
        self.version = version
        self.address = address
        self.length = length
    }

    /// Nil unless `payload` is exactly 13 bytes.
    public init?(payload: [UInt8]) {
        guard payload.count == Self.encodedCount, let version = LittleEndian.u32(payload, at: 1),
              let address = LittleEndian.u32(payload, at: 5), let length = LittleEndian.u32(payload, at: 9)
        else { return nil }
        self.init(type: ImageType(rawValue: payload[0]), version: version, address: address, length: length)
    }

    public var encoded: [UInt8] {
        [type.rawValue] + LittleEndian.bytes(version) + LittleEndian.bytes(address) + LittleEndian.bytes(length)
    }

    public var description: String {
        "\(type) version \(version) at 0x\(hexDigits(address, width: 8)), \(length) bytes"
    }
}
