import Transport

/// Why a decoded SLIP frame is not a response this client can read. Each case keeps what arrived.
public enum NordicSerialWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than the 3 bytes `60 <op> <result>`.
    case tooShort(count: Int)
    /// The first byte is not the response code 0x60.
    case notAResponse(firstByte: UInt8)
    /// The echoed opcode is none the SDK defines.
    case unknownOpcode(UInt8)
    /// A response echoing Write Object: the bootloader answers writes only with a packet receipt,
    /// which carries the Calculate Checksum opcode (`dfu_req_handler_rsp_clbk`, `nrf_dfu_serial.c`).
    case writeObjectEchoed
    /// A serial-only response whose payload does not have the length its opcode and result require.
    case payloadLength(opcode: NordicSerialOpcode, result: NordicResultCode, expected: Int, actual: Int)
    /// A shared Control Point response that `NordicResponse` refused.
    case controlPoint(NordicWireError)

    public var description: String {
        switch self {
        case .tooShort(let count):
            return "a \(count)-byte serial response (a response has at least 3)"
        case .notAResponse(let first):
            return "a serial frame starting with 0x\(hexDigits(first, width: 2)), not the response code 0x60"
        case .unknownOpcode(let opcode):
            return "a serial response to opcode 0x\(hexDigits(opcode, width: 2)), which no bootloader defines"
        case .writeObjectEchoed:
            return "a serial response echoing Write Object, which the bootloader never sends"
        case .payloadLength(let opcode, let result, let expected, let actual):
            return "a \(opcode) response (\(result)) with \(actual) payload bytes where \(expected) belong"
        case .controlPoint(let error):
            return error.description
        }
    }
}
