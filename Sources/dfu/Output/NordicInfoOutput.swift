import DFUCore
import Transport

/// The Nordic Secure DFU part of `dfu info`: what the device is, and what a bootloader's objects
/// hold.
///
///     protocol           Nordic Secure DFU: bootloader (DFU mode)
///     init packet        room for 512 bytes; holds 141 bytes (CRC 0x1C2D3E4F)
///     firmware objects   4096 bytes each; 8192 bytes received (CRC 0x…)
///
/// A bootloader on a serial port says more (`NordicSerialInfoOutput`): its protocol version, chip
/// and images.
enum NordicInfoOutput {
    static func add(_ nordic: NordicDeviceInfo, _ facts: DeviceFacts, to table: inout AlignedTable) {
        let version = nordic.serial?.protocolVersion.map { " (protocol version \($0))" } ?? ""
        table.add("protocol", "Nordic Secure DFU\(version): " + role(nordic.role))
        if let serial = nordic.serial { NordicSerialInfoOutput.add(serial, to: &table) }
        if let command = nordic.commandObject {
            table.add("init packet", "room for \(command.maxSize) bytes; " + holds(command))
        }
        if let data = nordic.dataObject {
            table.add("firmware objects", "\(data.maxSize) bytes each; " + received(data))
        }
        table.add("battery", facts.batteryLevel.map { "\($0) %" } ?? "not reported (no Battery Service)")
        table.add("firmware revision", facts.firmwareRevision.map(TerminalText.sanitized) ?? "not reported")
    }

    static func json(_ nordic: NordicDeviceInfo) -> JSONValue {
        var fields = [JSONField("role", .string(roleName(nordic.role)))]
        if case .buttonlessApplication(let bonds) = nordic.role { fields.append(JSONField("keeps_bonds", .bool(bonds))) }
        fields.append(JSONField("command_object", nordic.commandObject.map(objectJSON) ?? .null))
        fields.append(JSONField("data_object", nordic.dataObject.map(objectJSON) ?? .null))
        fields.append(JSONField("serial", nordic.serial.map(NordicSerialInfoOutput.json) ?? .null))
        return .object(fields)
    }

    private static func role(_ role: NordicDeviceInfo.Role) -> String {
        switch role {
        case .bootloader: return "bootloader (DFU mode)"
        case .buttonlessApplication(bonds: true):
            return "application with buttonless DFU (keeps bonds: its bootloader answers at the same address)"
        case .buttonlessApplication(bonds: false):
            return "application with buttonless DFU (its bootloader answers at the address + 1)"
        }
    }

    private static func roleName(_ role: NordicDeviceInfo.Role) -> String {
        switch role {
        case .bootloader: return "bootloader"
        case .buttonlessApplication: return "buttonless-application"
        }
    }

    private static func holds(_ object: NordicObjectInfo) -> String {
        object.offset == 0 ? "empty" : "holds \(object.offset) bytes (CRC 0x\(hexDigits(object.crc, width: 8)))"
    }

    private static func received(_ object: NordicObjectInfo) -> String {
        object.offset == 0 ? "nothing received" : "\(object.offset) bytes received (CRC 0x\(hexDigits(object.crc, width: 8)))"
    }

    private static func objectJSON(_ object: NordicObjectInfo) -> JSONValue {
        .object([
            JSONField("max_size", .int(Int(object.maxSize))),
            JSONField("offset", .int(Int(object.offset))),
            JSONField("crc32", .int(Int(object.crc))),
        ])
    }

}
