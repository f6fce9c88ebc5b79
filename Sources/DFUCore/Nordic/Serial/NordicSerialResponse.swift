/// A bootloader's answer over UART or USB, after SLIP decoding: `60 <request opcode> <result>
/// [payload]`, as `response_send` (`nrf_dfu_serial.c`) builds it. A payload follows only a success
/// (its layout fixed by the opcode) or an extended error (one code byte).
///
/// Answers to the shared requests are byte-identical to BLE notifications and parse through
/// `NordicResponse`; that includes a packet receipt, which over serial is a Calculate Checksum
/// response sent in place of an answer to every PRN-th Write Object
/// (`dfu_req_handler_rsp_clbk`). Lengths are checked exactly; unknown result codes are kept.
public enum NordicSerialResponse: Sendable, Hashable, CustomStringConvertible {
    case controlPoint(NordicResponse)
    case protocolVersion(UInt8)
    /// The bootloader's MTU: the largest SLIP-encoded frame it takes.
    case mtu(UInt16)
    case ping(id: UInt8)
    case hardwareVersion(NordicHardwareVersion)
    case firmwareVersion(NordicFirmwareVersion)
    /// A serial-only request the bootloader refused, e.g. `opcodeNotSupported` from an SDK built
    /// without `NRF_DFU_PROTOCOL_FW_VERSION_MSG`.
    case refused(NordicSerialOpcode, NordicRemoteError)

    public init(decoding bytes: [UInt8]) throws(NordicSerialWireError) {
        guard bytes.count >= 3 else { throw .tooShort(count: bytes.count) }
        guard bytes[0] == NordicOpcode.responseCode else { throw .notAResponse(firstByte: bytes[0]) }
        if NordicOpcode(rawValue: bytes[1]) != nil {
            do {
                self = .controlPoint(try NordicResponse(decoding: bytes))
            } catch {
                throw .controlPoint(error)
            }
            return
        }
        guard let opcode = NordicSerialOpcode(rawValue: bytes[1]) else { throw .unknownOpcode(bytes[1]) }
        guard opcode != .writeObject else { throw .writeObjectEchoed }
        let result = NordicResultCode(rawValue: bytes[2])
        let payload = Array(bytes.dropFirst(3))
        func expect(_ count: Int) throws(NordicSerialWireError) {
            guard payload.count == count else {
                throw .payloadLength(opcode: opcode, result: result, expected: count, actual: payload.count)
            }
        }
        switch result {
        case .success:
            switch opcode {
            case .protocolVersion:
                try expect(1)
                self = .protocolVersion(payload[0])
            case .getMTU:
                try expect(2)
                self = .mtu(UInt16(payload[0]) | UInt16(payload[1]) << 8)
            case .ping:
                try expect(1)
                self = .ping(id: payload[0])
            case .hardwareVersion:
                try expect(NordicHardwareVersion.encodedCount)
                guard let version = NordicHardwareVersion(payload: payload) else { throw .tooShort(count: bytes.count) }
                self = .hardwareVersion(version)
            case .firmwareVersion:
                try expect(NordicFirmwareVersion.encodedCount)
                guard let version = NordicFirmwareVersion(payload: payload) else { throw .tooShort(count: bytes.count) }
                self = .firmwareVersion(version)
            case .writeObject:
                throw .writeObjectEchoed
            }
        case .extendedError:
            try expect(1)
            self = .refused(opcode, NordicRemoteError(result: result, extended: NordicExtendedError(rawValue: payload[0])))
        default:
            try expect(0)
            self = .refused(opcode, NordicRemoteError(result: result))
        }
    }

    /// The echoed request opcode.
    public var opcode: UInt8 {
        switch self {
        case .controlPoint(let response): return response.opcode.rawValue
        case .protocolVersion: return NordicSerialOpcode.protocolVersion.rawValue
        case .mtu: return NordicSerialOpcode.getMTU.rawValue
        case .ping: return NordicSerialOpcode.ping.rawValue
        case .hardwareVersion: return NordicSerialOpcode.hardwareVersion.rawValue
        case .firmwareVersion: return NordicSerialOpcode.firmwareVersion.rawValue
        case .refused(let opcode, _): return opcode.rawValue
        }
    }

    /// The response bytes, unframed (for a virtual bootloader and round-trip tests).
    public var encoded: [UInt8] {
        let success = NordicResultCode.success.rawValue
        switch self {
        case .controlPoint(let response): return response.encoded
        case .protocolVersion(let version): return [NordicOpcode.responseCode, opcode, success, version]
        case .mtu(let size): return [NordicOpcode.responseCode, opcode, success] + LittleEndian.bytes(size)
        case .ping(let id): return [NordicOpcode.responseCode, opcode, success, id]
        case .hardwareVersion(let version): return [NordicOpcode.responseCode, opcode, success] + version.encoded
        case .firmwareVersion(let version): return [NordicOpcode.responseCode, opcode, success] + version.encoded
        case .refused(_, let error):
            return [NordicOpcode.responseCode, opcode, error.result.rawValue] + (error.extended.map { [$0.rawValue] } ?? [])
        }
    }

    /// The bytes a bootloader writes to the line: `encoded`, SLIP-framed.
    public var framed: [UInt8] { SLIPEncoder.encode(encoded) }

    public var description: String {
        switch self {
        case .controlPoint(let response): return response.description
        case .protocolVersion(let version): return "Protocol Version: \(version)"
        case .mtu(let size): return "Get MTU: \(size)"
        case .ping(let id): return "Ping: \(id)"
        case .hardwareVersion(let version): return "Hardware Version: \(version)"
        case .firmwareVersion(let version): return "Firmware Version: \(version)"
        case .refused(let opcode, let error): return "\(opcode): \(error)"
        }
    }
}
