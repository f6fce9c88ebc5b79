/// A request to a bootloader over UART or USB, before SLIP framing. The shared Control Point
/// requests keep the bytes they have over BLE; the rest exist only here. Each is the opcode and
/// its little-endian parameters, as `nrf_dfu_serial_on_packet_received` (`nrf_dfu_serial.c`)
/// parses them and pc-nrfutil's `DfuTransportSerial` (`dfu_transport_serial.py`) writes them.
public enum NordicSerialRequest: Sendable, Hashable, CustomStringConvertible {
    /// Create, Set PRN, Calculate Checksum, Execute, Select or Abort, byte for byte as over BLE.
    case controlPoint(NordicRequest)
    /// `00`: the DFU protocol version (1 in SDK 15–17).
    case protocolVersion
    /// `07`: the largest SLIP frame the bootloader takes (`NordicSerialWriteSize` derives the data
    /// per Write Object from it).
    case getMTU
    /// `08 <data…>`: bytes for the selected object, no length field. Answered only when a
    /// packet receipt is due, and then as a Calculate Checksum response.
    case writeObject([UInt8])
    /// `09 <id>`: echoed in the answer, so a late answer to an earlier ping is told apart.
    case ping(id: UInt8)
    /// `0A`: chip part, variant and memory sizes.
    case hardwareVersion
    /// `0B <image>`: type, version, address and length of installed image `image`.
    case firmwareVersion(image: UInt8)

    /// The request's first byte.
    public var opcode: UInt8 {
        switch self {
        case .controlPoint(let request): return request.opcode.rawValue
        case .protocolVersion: return NordicSerialOpcode.protocolVersion.rawValue
        case .getMTU: return NordicSerialOpcode.getMTU.rawValue
        case .writeObject: return NordicSerialOpcode.writeObject.rawValue
        case .ping: return NordicSerialOpcode.ping.rawValue
        case .hardwareVersion: return NordicSerialOpcode.hardwareVersion.rawValue
        case .firmwareVersion: return NordicSerialOpcode.firmwareVersion.rawValue
        }
    }

    /// The request bytes, unframed.
    public var encoded: [UInt8] {
        switch self {
        case .controlPoint(let request): return request.encoded
        case .protocolVersion, .getMTU, .hardwareVersion: return [opcode]
        case .writeObject(let data): return [opcode] + data
        case .ping(let id): return [opcode, id]
        case .firmwareVersion(let image): return [opcode, image]
        }
    }

    /// The bytes to write to the line: `encoded`, SLIP-framed.
    public var framed: [UInt8] { SLIPEncoder.encode(encoded) }

    /// Reads a request back (for a virtual bootloader and tests); nil for anything else. Every
    /// parameter length is checked exactly, which the SDK does not do; a Write Object needs at
    /// least one data byte (the SDK asserts on an empty one).
    public init?(decoding bytes: [UInt8]) {
        guard let first = bytes.first else { return nil }
        if NordicOpcode(rawValue: first) != nil {
            guard let request = NordicRequest(decoding: bytes) else { return nil }
            self = .controlPoint(request)
            return
        }
        guard let opcode = NordicSerialOpcode(rawValue: first) else { return nil }
        let parameters = Array(bytes.dropFirst())
        switch opcode {
        case .protocolVersion, .getMTU, .hardwareVersion:
            guard parameters.isEmpty else { return nil }
            self = opcode == .protocolVersion ? .protocolVersion : opcode == .getMTU ? .getMTU : .hardwareVersion
        case .writeObject:
            guard !parameters.isEmpty else { return nil }
            self = .writeObject(parameters)
        case .ping:
            guard parameters.count == 1 else { return nil }
            self = .ping(id: parameters[0])
        case .firmwareVersion:
            guard parameters.count == 1 else { return nil }
            self = .firmwareVersion(image: parameters[0])
        }
    }

    public var description: String {
        switch self {
        case .controlPoint(let request): return request.description
        case .protocolVersion: return "Protocol Version"
        case .getMTU: return "Get MTU"
        case .writeObject(let data): return "Write Object of \(data.count) bytes"
        case .ping(let id): return "Ping \(id)"
        case .hardwareVersion: return "Hardware Version"
        case .firmwareVersion(let image): return "Firmware Version of image \(image)"
        }
    }
}
