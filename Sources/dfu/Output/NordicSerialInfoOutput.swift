import DFUCore
import Transport

/// What an nRF5 SDK bootloader on a serial port tells besides its objects, in `dfu info`: the
/// chip (Hardware Version) and each image it holds (Firmware Version), one row each.
///
///     chip               nRF52840 (variant AAD0): 1024 KiB flash in 4096-byte pages, 256 KiB RAM
///     bootloader         version 2 at 0x000F8000, 24576 bytes
///     SoftDevice         7.2.0 at 0x00001000, 155648 bytes
///     application        version 3 at 0x00027000
///
/// The MTU is on the link row (`SerialLinkOutput`); what the bootloader refused is left out.
enum NordicSerialInfoOutput {
    static func add(_ serial: NordicSerialDetails, to table: inout AlignedTable) {
        if let hardware = serial.hardware { table.add("chip", chip(hardware)) }
        for (index, image) in serial.firmware.enumerated() {
            table.add(label(image.type, index: index), firmware(image))
        }
    }

    static func json(_ serial: NordicSerialDetails) -> JSONValue {
        .object([
            JSONField("mtu", .int(serial.mtu)),
            JSONField("write_size", .int(serial.writeSize)),
            JSONField("protocol_version", serial.protocolVersion.map { .int(Int($0)) } ?? .null),
            JSONField("hardware", serial.hardware.map { hardware in
                .object([
                    JSONField("part", .string(partName(hardware.part))),
                    JSONField("variant", .string(variantName(hardware.variant))),
                    JSONField("rom_size", .int(Int(hardware.romSize))),
                    JSONField("ram_size", .int(Int(hardware.ramSize))),
                    JSONField("rom_page_size", .int(Int(hardware.romPageSize))),
                ])
            } ?? .null),
            JSONField("firmware", .array(serial.firmware.map { image in
                .object([
                    JSONField("type", .string(typeName(image.type))),
                    JSONField("version", .int(Int(image.version))),
                    JSONField("version_text", .string(versionText(image))),
                    JSONField("address", .int(Int(image.address))),
                    JSONField("length", .int(Int(image.length))),
                ])
            })),
        ])
    }

    /// `nRF52840 (variant AAD0): 1024 KiB flash in 4096-byte pages, 256 KiB RAM`.
    static func chip(_ hardware: NordicHardwareVersion) -> String {
        "\(partName(hardware.part)) (variant \(variantName(hardware.variant))): \(hardware.romSize / 1024) KiB flash in "
            + "\(hardware.romPageSize)-byte pages, \(hardware.ramSize / 1024) KiB RAM"
    }

    /// FICR INFO.PART is the part number in hex digits (0x52840): `nRF52840`; anything else in hex.
    static func partName(_ part: UInt32) -> String {
        let digits = String(part, radix: 16)
        return digits.allSatisfy(\.isNumber) ? "nRF" + digits : "0x" + hexDigits(part, width: 8)
    }

    /// FICR INFO.VARIANT holds four ASCII characters, the first in the top byte (`AAD0`); anything
    /// else in hex.
    static func variantName(_ variant: UInt32) -> String {
        let bytes = (0 ..< 4).map { UInt8(truncatingIfNeeded: variant >> (24 - 8 * $0)) }
        guard bytes.allSatisfy({ (0x21 ... 0x7E).contains($0) }) else { return "0x" + hexDigits(variant, width: 8) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `version 2 at 0x000F8000, 24576 bytes`; the length is left out where the bootloader keeps
    /// none (0: an application whose size it did not record).
    static func firmware(_ image: NordicFirmwareVersion) -> String {
        let version = image.type == .softdevice ? versionText(image) : "version \(image.version)"
        return "\(version) at 0x\(hexDigits(image.address, width: 8))" + (image.length > 0 ? ", \(image.length) bytes" : "")
    }

    /// A SoftDevice's version is major · 1,000,000 + minor · 1,000 + bugfix (`SD_VERSION_GET`):
    /// `7.2.0`; other images' versions are the plain numbers their init packets gave.
    static func versionText(_ image: NordicFirmwareVersion) -> String {
        guard image.type == .softdevice, image.version >= 1_000_000 else { return String(image.version) }
        return "\(image.version / 1_000_000).\(image.version / 1_000 % 1_000).\(image.version % 1_000)"
    }

    private static func label(_ type: NordicFirmwareVersion.ImageType, index: Int) -> String {
        switch type {
        case .bootloader: return "bootloader"
        case .softdevice: return "SoftDevice"
        case .application: return "application"
        case .none, .unknown: return "image \(index)"
        }
    }

    private static func typeName(_ type: NordicFirmwareVersion.ImageType) -> String {
        switch type {
        case .bootloader: return "bootloader"
        case .softdevice: return "softdevice"
        case .application: return "application"
        case .none: return "none"
        case .unknown(let raw): return "0x" + hexDigits(raw, width: 2)
        }
    }
}
